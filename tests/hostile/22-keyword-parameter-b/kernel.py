from numba import cuda

@cuda.jit
def k(a, for):
    a[0] = 1
