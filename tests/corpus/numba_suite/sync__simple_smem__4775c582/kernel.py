# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_simple_smem) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32




@cuda.jit('void(int32[::1])')
def simple_smem(ary):
    N = 100
    sm = cuda.shared.array(N, int32)
    i = cuda.grid(1)
    if i == 0:
        for j in range(N):
            sm[j] = j
    cuda.syncthreads()
    ary[i] = sm[i]
