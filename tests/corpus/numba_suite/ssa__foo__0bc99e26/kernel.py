# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_sum_loop_2vars) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, n):
    c = 0
    d = n
    for i in range(n):
        c += i
        d += n
    result[0] = c
    result[1] = d
