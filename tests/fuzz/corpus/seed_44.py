float64(float64[:])
from numba import cuda
# pykern: --sig k=float64(float64[:])

@cuda.jit
def k(a):
    a[0] = 1
