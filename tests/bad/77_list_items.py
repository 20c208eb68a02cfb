from numba import cuda, njit
# pykern: --sig k=void(int64[:])

@njit
def mixed(n):
    xs = [1, 2.5]
    ys = [(1, 2)]
    zs = []
    zs.append(xs)
    return xs[0:1]

@cuda.jit
def k(a):
    a[0] = mixed(a[1])
