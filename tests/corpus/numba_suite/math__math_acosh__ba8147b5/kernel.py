# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_acosh) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_acosh(A, B):
    i = cuda.grid(1)
    B[i] = math.acosh(A[i])
