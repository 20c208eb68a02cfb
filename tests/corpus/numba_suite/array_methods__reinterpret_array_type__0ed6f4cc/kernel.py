# Recorded from numba.cuda.tests.cudapy.test_array_methods (TestCudaArrayMethods.test_reinterpret_array_type) by tests/numba_suite/harness.py
from numba import cuda
import numpy as np




@cuda.jit
def reinterpret_array_type(byte_arr, start, stop, output):
    # Tested with just one thread
    val = byte_arr[start:stop].view(np.int32)[0]
    output[0] = val
