from numba import cuda

# pykern: --sig k=void(float64[::1])

@cuda.jit
def k(a):
    d = {1: 2}
