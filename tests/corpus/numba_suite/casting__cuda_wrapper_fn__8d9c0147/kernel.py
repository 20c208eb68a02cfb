# Recorded from numba.cuda.tests.cudapy.test_casting (TestCasting.test_float_to_complex) by tests/numba_suite/harness.py
from numba import cuda
import numpy as np




@cuda.jit(device=True)
def wrapped_func(x):
    return np.complex64(x)


@cuda.jit
def cuda_wrapper_fn(arg, res):
    res[0] = wrapped_func(arg[0])
