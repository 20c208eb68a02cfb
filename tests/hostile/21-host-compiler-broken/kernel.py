from numba import cuda


@cuda.jit
def first(a):
    a[0] = 1
