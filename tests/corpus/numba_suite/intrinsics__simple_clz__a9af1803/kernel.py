# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_clz_i4) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:], int32)')
def simple_clz(ary, c):
    ary[0] = cuda.clz(c)
