"""Dtype-generic kernels from a benchmark suite.

The same kernels run on float32 and float64 data: constants are converted with
arr.dtype.type(...), scratch arrays take the argument's dtype, and byte counts
come from itemsize.
"""
import numpy as np
from numba import cuda

BLOCK = 32
INT_BYTES = np.dtype(np.int32).itemsize
F8_BYTES = np.dtype("float64").itemsize


@cuda.jit
def scaled_window_sum(x, out, nbytes):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    half = x.dtype.type(0.5)
    window = cuda.local.array(4, dtype=x.dtype)
    for k in range(4):
        j = i + k
        if j >= x.shape[0]:
            j = x.shape[0] - 1
        window[k] = x[j] * half
    acc = x.dtype.type(0)
    for k in range(4):
        acc += window[k]
    out[i] = acc
    if i == 0:
        nbytes[0] = x.dtype.itemsize
        nbytes[1] = out.dtype.itemsize * x.shape[0]
        nbytes[2] = INT_BYTES + F8_BYTES
        nbytes[3] = np.dtype(np.int16).itemsize
        shared = cuda.shared.array(BLOCK, dtype=nbytes.dtype)
        shared[0] = nbytes.dtype.type(7)
        nbytes[4] = shared[0]
