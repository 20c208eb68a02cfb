# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_argument_name_reused) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, x):
    x += 1
    result[0] = x
