from numba import cuda

@cuda.jit
def k(a):
    __debug__ = 1
    a[0] = 1
