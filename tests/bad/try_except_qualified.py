# A handler's class is Exception itself: `except builtins.Exception:` is, but a tuple holding
# Exception alone is refused (Numba: "'UniTuple' object has no attribute 'exc_class'"), and so
# is another module's attribute named Exception.
import builtins
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def guarded(x):
    try:
        r = 10 // x
    except (Exception,):
        r = -1
    try:
        r += 10 // (x - 1)
    except np.Exception:
        r = -2
    try:
        r += 10 // (x - 2)
    except builtins.Exception:
        r = -3
    return r


@cuda.jit
def k(a):
    a[0] = guarded(a.shape[0])
