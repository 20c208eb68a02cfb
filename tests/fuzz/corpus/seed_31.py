void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    for i in range(2.5):
        a[0] = i
