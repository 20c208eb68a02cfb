# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_coop_smem2d) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32




@cuda.jit('void(float32[:,::1])')
def coop_smem2d(ary):
    i, j = cuda.grid(2)
    sm = cuda.shared.array((10, 20), float32)
    sm[i, j] = (i + 1) / (j + 1)
    cuda.syncthreads()
    ary[i, j] = sm[i, j]
