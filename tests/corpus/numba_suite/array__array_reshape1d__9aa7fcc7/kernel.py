# Recorded from numba.cuda.tests.cudapy.test_array (TestCudaArray.test_array_reshape) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def array_reshape1d(arr, newshape, got):
    y = arr.reshape(newshape)
    for i in range(y.shape[0]):
        got[i] = y[i]
