void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

def helper(x):
    return x * 2

@cuda.jit
def k(a):
    a[0] = helper(a[0])
