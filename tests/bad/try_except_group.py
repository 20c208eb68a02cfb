# Exception groups ('except*') are not supported.
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def guarded(x):
    try:
        r = 1.0 / x
    except* ValueError:
        r = 0.0
    return r


@cuda.jit
def k(a):
    a[0] = guarded(a[0])
