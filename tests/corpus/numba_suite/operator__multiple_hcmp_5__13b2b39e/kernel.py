# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_multiple_float16_comparisons) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(b1[:], f2, f2, f2)')
def multiple_hcmp_5(r, a, b, c):
    # Different float16 predicates used in a function
    r[0] = a < b and c >= b
