# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_expm1) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_expm1(A, B):
    i = cuda.grid(1)
    B[i] = math.expm1(A[i])
