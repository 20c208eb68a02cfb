# Recorded from numba.cuda.tests.cudapy.test_retrieve_autoconverted_arrays (TestRetrieveAutoconvertedArrays.test_array_default) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def set_array_to_three(arr):
    arr[0] = 3
