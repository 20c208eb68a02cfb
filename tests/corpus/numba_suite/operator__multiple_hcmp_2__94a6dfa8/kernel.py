# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_multiple_float16_comparisons) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('b1(f2, f2)', device=True)
def hlt_func_1(x, y):
    return x < y


@cuda.jit('void(b1[:], f2, f2, f2)')
def multiple_hcmp_2(r, a, b, c):
    # The same float16 predicate used in the caller and callee
    r[0] = hlt_func_1(a, b) and b < c
