from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    while a[i] = 0:
        i += 1
