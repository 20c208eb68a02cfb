void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    x, y, z = cuda.grid(2)
