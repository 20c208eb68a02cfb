from numba import cuda


@cuda.jit
def k(a):
    1 = a[0]
