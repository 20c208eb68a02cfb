# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_if_else_redefine) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, x, y):
    z = x * y
    if x < y:
        z = x
    else:
        z = y
    result[0] = z
