# CPython: leading zeros in decimal integer literals are not permitted.
from numba import cuda

@cuda.jit
def k(a):
    a[0] = 09
