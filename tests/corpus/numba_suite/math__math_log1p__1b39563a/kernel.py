# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_log1p) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_log1p(A, B):
    i = cuda.grid(1)
    B[i] = math.log1p(A[i])
