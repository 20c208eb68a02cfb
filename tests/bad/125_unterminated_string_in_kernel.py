from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    s = 'abc
    a[i] = 1
