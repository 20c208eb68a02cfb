void(float64[:])
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit(device=True)
def pick(x):
    if x > 0:
        return 1.0
    return (1, 2)

@cuda.jit
def k(a):
    a[0] = pick(a[0])
