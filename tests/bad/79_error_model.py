from numba import cuda, njit
# pykern: --sig k=void(float64[:])

@njit(error_model='c')
def f(x):
    return x / 2

@cuda.jit
def k(a):
    a[0] = f(a[0])
