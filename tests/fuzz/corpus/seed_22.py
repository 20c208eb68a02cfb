void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit(device=True)
def add(x, y):
    return x + y

@cuda.jit
def k(a):
    a[0] = add(1.0)
