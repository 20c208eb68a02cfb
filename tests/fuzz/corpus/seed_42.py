void(float64[:], int64)
from numba import cuda
# pykern: --sig k=void(float64[:], int64)

@cuda.jit
def k(a, n):
    t = (1, 2.0)
    a[0] = t[n]
