# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_simple_gridsize1d) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[::1])')
def simple_gridsize1d(ary):
    i = cuda.grid(1)
    x = cuda.gridsize(1)
    if i == 0:
        ary[0] = x
