# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_mixed_fp16_comparison) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(b1[:], f2, f2)')
def simple_fp16_ge(ary, a, b):
    ary[0] = a >= b
