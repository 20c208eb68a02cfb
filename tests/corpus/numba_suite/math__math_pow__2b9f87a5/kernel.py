# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_pow) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_pow(A, B, C):
    i = cuda.grid(1)
    C[i] = math.pow(A[i], B[i])
