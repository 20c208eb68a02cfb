# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_syncthreads_count_upcast) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def use_syncthreads_count(ary_in, ary_out):
    i = cuda.grid(1)
    ary_out[i] = cuda.syncthreads_count(ary_in[i])
