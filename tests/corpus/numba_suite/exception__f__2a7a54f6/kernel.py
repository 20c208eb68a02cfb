# Recorded from numba.cuda.tests.cudapy.test_exception (TestException.test_no_zero_division_error) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def f(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]
