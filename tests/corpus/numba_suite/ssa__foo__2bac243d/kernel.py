# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_sum_2d_loop) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, n):
    c = 0
    for i in range(n):
        for j in range(n):
            c += j
        c += i
    result[0] = c
