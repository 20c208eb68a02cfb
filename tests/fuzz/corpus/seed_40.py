void(float64[:], int64)
from numba import cuda
# pykern: --sig k=void(float64[:], int64)

@cuda.jit
def k(a, n):
    i = cuda.grid(n)
