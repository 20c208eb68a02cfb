# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_fmod) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_fmod(A, B, C):
    i = cuda.grid(1)
    C[i] = math.fmod(A[i], B[i])
