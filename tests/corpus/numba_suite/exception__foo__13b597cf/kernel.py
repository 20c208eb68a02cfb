# Recorded from numba.cuda.tests.cudapy.test_exception (TestException.test_user_raise) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(do_raise):
    if do_raise:
        raise ValueError
