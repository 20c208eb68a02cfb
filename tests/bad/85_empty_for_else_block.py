# CPython: IndentationError after 'else' statement (a for loop's else).
from numba import cuda

@cuda.jit
def k(a):
    for i in range(a.size):
        a[i] = 1
    else:
    a[0] = 2
