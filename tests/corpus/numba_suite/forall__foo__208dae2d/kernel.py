# Recorded from numba.cuda.tests.cudapy.test_forall (TestForAll.test_forall_1) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1
