from numba import cuda, njit
# pykern: --sig k=void(int64[:])

@njit
def shrink(n):
    l = [1, 2, 3]
    del l[0:2]
    del l[0:1, 1]
    del n
    return len(l)

@cuda.jit
def k(a):
    a[0] = shrink(a[1])
