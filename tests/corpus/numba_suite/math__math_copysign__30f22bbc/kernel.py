# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_copysign) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_copysign(A, B, C):
    i = cuda.grid(1)
    C[i] = math.copysign(A[i], B[i])
