from numba import cuda
# pykern: --sig k=void(int64[:])
# Each call nests its argument in one more tuple: no two calls have one signature.

@cuda.jit(device=True)
def nest(x, n):
    if n <= 0:
        return 0
    return nest((x, x), n - 1)

@cuda.jit
def k(a):
    a[0] = nest(a[1], a[2])
