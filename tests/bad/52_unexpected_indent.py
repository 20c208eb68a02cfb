from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    i = cuda.grid(1)
        a[0] = i
