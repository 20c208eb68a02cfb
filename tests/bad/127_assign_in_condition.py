from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i = 0:
        a[0] = 1
