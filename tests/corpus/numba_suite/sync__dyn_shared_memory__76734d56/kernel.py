# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_dyn_shared_memory) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32




@cuda.jit('void(float32[::1])')
def dyn_shared_memory(ary):
    i = cuda.grid(1)
    sm = cuda.shared.array(0, float32)
    sm[i] = i * 2
    cuda.syncthreads()
    ary[i] = sm[i]
