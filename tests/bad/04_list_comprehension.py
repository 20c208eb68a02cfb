from numba import cuda

# pykern: --sig k=void(float64[::1])

@cuda.jit
def k(a):
    b = [x for x in range(3)]
