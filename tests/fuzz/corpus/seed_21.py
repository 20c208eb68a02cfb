void(int64[:])
from numba import cuda
# pykern: --sig k=void(int64[:])

@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

@cuda.jit
def k(a):
    a[0] = fact(5)
