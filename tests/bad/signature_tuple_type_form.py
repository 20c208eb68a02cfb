from numba import cuda


@cuda.jit('void(float64[:], Tuple(int64, int64))')
def fill(a, shape):
    a[0] = shape[0] * shape[1]
