from numba import cuda

@cuda.jit
def k(a):
    café = 1
    a[0] = café
