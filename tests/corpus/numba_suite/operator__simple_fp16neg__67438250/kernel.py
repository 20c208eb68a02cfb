# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_fp16_unary) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2)')
def simple_fp16neg(ary, a):
    ary[0] = -a
