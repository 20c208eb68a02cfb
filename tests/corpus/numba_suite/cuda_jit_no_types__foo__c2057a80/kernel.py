# Recorded from numba.cuda.tests.cudapy.test_cuda_jit_no_types (TestCudaJitNoTypes.test_device_array) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(x, y):
    i = cuda.grid(1)
    y[i] = x[i]
