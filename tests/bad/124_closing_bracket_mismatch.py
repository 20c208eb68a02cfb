from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = (a[i] + 1]
