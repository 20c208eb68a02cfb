# Recorded from numba.cuda.tests.cudapy.test_dispatcher (TestDispatcher.test_explicit_signatures_device) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def add_device(x, y):
    return x + y


@cuda.jit
def f(r, x, y):
    r[0] = add_device(x, y)
