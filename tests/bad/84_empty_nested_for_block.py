# CPython: IndentationError after the inner 'for' statement.
from numba import cuda

@cuda.jit
def k(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
        a[i, 0] = 1
