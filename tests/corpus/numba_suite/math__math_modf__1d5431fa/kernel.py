# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_modf) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_modf(A, B, C):
    i = cuda.grid(1)
    B[i], C[i] = math.modf(A[i])
