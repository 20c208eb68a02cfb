# CPython: IndentationError after function definition; the body was module code.
from numba import cuda

@cuda.jit
def k(a):
a[0] = 1
