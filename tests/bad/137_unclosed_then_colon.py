from numba import cuda


@cuda.jit
def k(a):
    if (a[0] > 0:
        a[0] = 1
