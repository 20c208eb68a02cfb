void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def other(a):
    a[0] = 1

@cuda.jit
def k(a):
    other(a)
