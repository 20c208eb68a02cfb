# Recorded from numba.cuda.tests.cudapy.test_operator (TestOperatorModule.test_add) by tests/numba_suite/harness.py
from numba import cuda
from operator import add as op




@cuda.jit
def foo(a, b):
    i = 0
    a[i] = op(a[i], b[i])
