# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_simple_laneid) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:])')
def simple_laneid(ary):
    i = cuda.grid(1)
    ary[i] = cuda.laneid
