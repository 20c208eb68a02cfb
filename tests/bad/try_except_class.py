# A handler catches every exception or none can be told apart: Numba matches a handler's class
# against Exception only, so any other class, or a tuple of classes, is refused where it stands.
# (A kernel calls the functions so that they are compiled; it then refuses their try statements.)
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def by_class(x):
    try:
        r = 1.0 / x
    except ZeroDivisionError:
        r = 0.0
    return r


@njit
def by_tuple(x):
    try:
        r = 1.0 / x
    except (ValueError, ZeroDivisionError):
        r = 0.0
    return r


@cuda.jit
def k(a):
    a[0] = by_class(a[0]) + by_tuple(a[1])
