void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    for i in range(0, 10, 0):
        a[0] = i
