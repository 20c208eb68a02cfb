# Recorded from numba.cuda.tests.cudapy.test_dispatcher (TestDispatcher.test_coerce_input_types) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('(i4[::1], i4, i4)')
def add_kernel(r, x, y):
    r[0] = x + y
