# Recorded from numba.cuda.tests.cudapy.test_powi (TestCudaPowi.test_cpow_complex128_pow) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def vec_pow(r, x, y):
    i = cuda.grid(1)

    if i < len(r):
        r[i] = pow(x[i], y[i])
