# Recorded from numba.cuda.tests.cudapy.test_frexp_ldexp (TestCudaFrexpLdexp.test_ldexp_f4) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def simple_ldexp(aryx, arg, exp):
    aryx[0] = math.ldexp(arg, exp)
