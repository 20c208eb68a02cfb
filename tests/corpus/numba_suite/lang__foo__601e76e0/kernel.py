# Recorded from numba.cuda.tests.cudapy.test_lang (TestLang.test_zip) by tests/numba_suite/harness.py
from numba import cuda

t1 = (1, 2, 3)
t2 = (4.5, 5.6, 6.7)


@cuda.jit('void(float64[:])')
def foo(a):
    c = 0
    for i, j in zip(t1, t2):
        c += i + j
    a[0] = c
