# A bare 'raise' in a handler would re-raise the exception it caught, which Numba cannot do.
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def guarded(x):
    try:
        r = 1.0 / x
    except Exception:
        if x < 0:
            raise
        r = 0.0
    return r


@cuda.jit
def k(a):
    a[0] = guarded(a[0])
