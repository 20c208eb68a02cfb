# Recorded from numba.cuda.tests.cudapy.test_cuda_jit_no_types (TestCudaJitNoTypes.test_device_jit) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def mapper(args):
    a, b, c = args
    return a + b + c


@cuda.jit(device=True)
def reducer(a, b):
    return a + b


@cuda.jit
def driver(A, B):
    i = cuda.grid(1)
    if i < B.size:
        args = A[i], A[i] + B[i], B[i]
        B[i] = reducer(mapper(args), 1)
