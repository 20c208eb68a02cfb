# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_atan2) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_atan2(A, B, C):
    i = cuda.grid(1)
    C[i] = math.atan2(A[i], B[i])
