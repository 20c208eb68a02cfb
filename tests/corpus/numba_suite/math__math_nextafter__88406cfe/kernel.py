# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_nextafter) by tests/numba_suite/harness.py
from numba import cuda
import math




@cuda.jit
def math_nextafter(A, B, C):
    i = cuda.grid(1)
    C[i] = math.nextafter(A[i], B[i])
