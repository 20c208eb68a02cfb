# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_bit_count_u2) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:], uint16)')
def simple_bit_count(ary, c):
    ary[0] = c.bit_count()
