# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_acos) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_acos(A, B):
    i = cuda.grid(1)
    B[i] = math.acos(A[i])
