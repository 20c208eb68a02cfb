# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_hypot) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_hypot(A, B, C):
    i = cuda.grid(1)
    C[i] = math.hypot(A[i], B[i])
