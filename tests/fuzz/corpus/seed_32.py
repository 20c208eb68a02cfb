void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    for i in range(1, 2, 3, 4):
        a[0] = i
