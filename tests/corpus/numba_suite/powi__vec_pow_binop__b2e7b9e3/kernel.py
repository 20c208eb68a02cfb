# Recorded from numba.cuda.tests.cudapy.test_powi (TestCudaPowi.test_cpow_complex128_binop) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def vec_pow_binop(r, x, y):
    i = cuda.grid(1)

    if i < len(r):
        r[i] = x[i] ** y[i]
