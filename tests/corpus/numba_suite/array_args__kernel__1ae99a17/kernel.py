# Recorded from numba.cuda.tests.cudapy.test_array_args (TestCudaArrayArg.test_array_ary) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('double(double[:],int64)', device=True)
def device_function(a, c):
    return a[c]


@cuda.jit('void(double[:],double[:])')
def kernel(x, y):
    i = cuda.grid(1)
    y[i] = device_function(x, i)
