from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def EOF(major, linux):
    i = cuda.grid(1)
    if i < major.size:
        major[i] = linux + i
