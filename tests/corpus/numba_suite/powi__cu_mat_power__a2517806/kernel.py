# Recorded from numba.cuda.tests.cudapy.test_powi (TestCudaPowi.test_powi) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32
import math




@cuda.jit
def cu_mat_power(A, power, power_A):
    y, x = cuda.grid(2)

    m, n = power_A.shape
    if x >= n or y >= m:
        return

    power_A[y, x] = math.pow(A[y, x], int32(power))
