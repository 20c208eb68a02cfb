# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_fp16_binary) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2, f2)')
def simple_fp16mul(ary, a, b):
    ary[0] = a * b
