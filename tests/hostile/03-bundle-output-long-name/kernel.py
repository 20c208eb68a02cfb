from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor
