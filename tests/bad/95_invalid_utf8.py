# CPython: Non-UTF-8 code, but no encoding declared (a Latin-1 byte in a UTF-8 file).
from numba import cuda

@cuda.jit
def k(a):
    café = 1
    a[0] = 1
