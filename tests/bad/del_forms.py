from numba import cuda, njit
# pykern: --sig k=void(int64[:])


@njit
def drop(n):
    d = {1: 2}
    x = 3
    del x
    del d[1], d[2]
    a = d
    del a.x
    return n


@cuda.jit
def k(a):
    a[0] = drop(a[1]) + drop_array_item(a)[0]


@njit
def drop_array_item(a):
    del a[0]
    return a
