# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_simple_grid2d) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:,::1])')
def simple_grid2d(ary):
    i, j = cuda.grid(2)
    ary[i, j] = i + j
