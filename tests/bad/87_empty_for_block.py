# CPython: IndentationError after 'for' statement; a comment line is no block.
from numba import cuda

@cuda.jit
def k(a):
    for i in range(a.size):
        # the body was meant to go here
    a[0] = 1
