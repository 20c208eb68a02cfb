# Recorded from numba.cuda.tests.cudapy.test_array (TestCudaArray.test_gpu_array_strided) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(double[:])')
def kernel(x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] = i
