# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_fp16) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_sin(A, B):
    i = cuda.grid(1)
    B[i] = math.sin(A[i])
