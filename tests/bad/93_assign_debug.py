# CPython: cannot assign to __debug__ (here in host code, which CPython compiles too).
from numba import cuda

__debug__ = 1

@cuda.jit
def k(a):
    a[0] = 1
