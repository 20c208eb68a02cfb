void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    if a[0] > 0:
        y = 1.0
    a[0] = z
    z = 2.0
