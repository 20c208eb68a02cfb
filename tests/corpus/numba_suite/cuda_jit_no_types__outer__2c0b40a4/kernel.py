# Recorded from numba.cuda.tests.cudapy.test_cuda_jit_no_types (TestCudaJitNoTypes.test_device_jit_2) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def inner(arg):
    return arg + 1


@cuda.jit
def outer(argin, argout):
    argout[0] = inner(argin[0]) + inner(2)
