from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = max(a[i] 0.0)
