# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_round_f4) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int64[:], float32)')
def simple_round(ary, c):
    ary[0] = round(c)
