from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 0
    else
        a[0] = 1
