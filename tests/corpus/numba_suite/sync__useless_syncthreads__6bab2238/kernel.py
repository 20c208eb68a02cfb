# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_useless_syncthreads) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[::1])')
def useless_syncthreads(ary):
    i = cuda.grid(1)
    cuda.syncthreads()
    ary[i] = i
