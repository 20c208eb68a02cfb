# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_ffs_i4) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:], int32)')
def simple_ffs(ary, c):
    ary[0] = cuda.ffs(c)
