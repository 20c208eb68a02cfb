void(flaot32[:])
from numba import cuda
# pykern: --sig k=void(flaot32[:])

@cuda.jit
def k(a):
    a[0] = 1
