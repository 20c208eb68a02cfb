# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_round_to_f8) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float64[:], float64, int32)')
def simple_round_to(ary, c, ndigits):
    ary[0] = round(c, ndigits)
