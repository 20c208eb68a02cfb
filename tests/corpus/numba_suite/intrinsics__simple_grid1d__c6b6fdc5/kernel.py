# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_simple_grid1d) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[::1])')
def simple_grid1d(ary):
    i = cuda.grid(1)
    ary[i] = i
