# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_log2) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_log2(A, B):
    i = cuda.grid(1)
    B[i] = math.log2(A[i])
