# Recorded from numba.cuda.tests.cudapy.test_recursion (TestSelfRecursion.test_global_explicit_sig) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('i8(i8)', device=True)
def cfunc(n):
    if n < 2:
        return n
    # Note the second call does not use a named argument, unlike the CPU target
    # usecase
    return cfunc(n - 1) + cfunc(n - 2)


@cuda.jit
def kernel(r, x):
    r[0] = cfunc(x[0])
