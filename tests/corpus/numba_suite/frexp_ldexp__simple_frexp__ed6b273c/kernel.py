# Recorded from numba.cuda.tests.cudapy.test_frexp_ldexp (TestCudaFrexpLdexp.test_frexp_f4) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def simple_frexp(aryx, aryexp, arg):
    aryx[0], aryexp[0] = math.frexp(arg)
