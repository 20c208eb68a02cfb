# Recorded from numba.cuda.tests.cudapy.test_boolean (TestCudaBoolean.test_boolean) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float64[:], bool_)')
def boolean_func(A, vertial):
    if vertial:
        A[0] = 123
    else:
        A[0] = 321
