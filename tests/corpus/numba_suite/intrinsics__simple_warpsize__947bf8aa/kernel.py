# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_simple_warpsize) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:])')
def simple_warpsize(ary):
    ary[0] = cuda.warpsize
