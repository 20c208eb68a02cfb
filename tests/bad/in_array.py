# `in` tests a tuple's items in kernels; an array is not searched.
from numba import cuda

# pykern: --sig mark=void(int64[::1], int64[::1])


@cuda.jit
def mark(labels, wanted):
    i = cuda.grid(1)
    if i < labels.size and labels[i] in wanted:
        labels[i] = -1
