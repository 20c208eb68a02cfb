from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    len(a) += 1
