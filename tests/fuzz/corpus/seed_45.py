void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    a[0] = missing_one
    with x:
        pass
    a[1] = a.nope
