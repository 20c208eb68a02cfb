void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    break
