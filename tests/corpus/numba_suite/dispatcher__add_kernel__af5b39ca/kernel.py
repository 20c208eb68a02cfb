# Recorded from numba.cuda.tests.cudapy.test_dispatcher (TestDispatcher.test_coerce_input_types) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def add_kernel(r, x, y):
    r[0] = x + y
