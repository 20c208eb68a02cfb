# Recorded from numba.cuda.tests.cudapy.test_lang (TestLang.test_enumerate) by tests/numba_suite/harness.py
from numba import cuda

tup = (1.0, 2.5, 3.0)


@cuda.jit('void(float64[:])')
def foo(a):
    for i, v in enumerate(tup):
        a[i] = v
