# CPython: IndentationError after 'else' statement (an if's else).
from numba import cuda

@cuda.jit
def k(a):
    if a[0] > 0:
        a[0] = 1
    else:
    a[0] = 2
