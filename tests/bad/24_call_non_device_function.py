from numba import cuda, vectorize
# pykern: --sig k=void(float64[:])

@vectorize(['float64(float64)'], target='cuda')
def other(a):
    return a + 1

def plain(a):
    return a

@cuda.jit
def k(a):
    a[0] = other(a[0])
    a[1] = plain(a[1])
