void(float32[:])
from numba import cuda
# pykern: --sig k=void(float32[:])

@cuda.jit
def k(a):
    b = a + 1
