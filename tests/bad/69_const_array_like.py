from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    c = cuda.const.array_like(a)
    a[0] = c[1]
