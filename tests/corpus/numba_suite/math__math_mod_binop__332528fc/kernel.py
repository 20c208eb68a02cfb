# Recorded from numba.cuda.tests.cudapy.test_math (TestCudaMath.test_math_mod_binop) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def math_mod_binop(A, B, C):
    i = cuda.grid(1)
    C[i] = A[i] % B[i]
