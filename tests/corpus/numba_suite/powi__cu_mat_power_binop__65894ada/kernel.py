# Recorded from numba.cuda.tests.cudapy.test_powi (TestCudaPowi.test_powi_binop) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def cu_mat_power_binop(A, power, power_A):
    y, x = cuda.grid(2)

    m, n = power_A.shape
    if x >= n or y >= m:
        return

    power_A[y, x] = A[y, x] ** power
