void(float32[:], int64)
from numba import cuda
# pykern: --sig k=void(float32[:], int64)

@cuda.jit
def k(a):
    a[0] = 1
