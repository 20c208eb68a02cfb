# Whole-array expressions in @njit functions: an in-place update whose result does not convert
# to the array's type (Numba's same-kind rule), a ufunc with no loop for its operands, the
# forms of np.where, np.clip and np.round (a float count of decimals) Numba refuses, and a
# ufunc called with the wrong arguments. (A kernel calls the function so that it is typed.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:], int64[:], complex128[:])


@njit
def f(a, i, z):
    i += 1.5
    roots = np.sqrt(z)
    bits = a & a
    picked = np.where(1, a, a)
    clipped = np.clip(1.0, 0.0, 1.0)
    rounded = np.round(a, 2.5)
    one = np.add(a)
    grown = a[:1]
    grown += np.zeros((2, 2))
    return 0.0


@cuda.jit
def k(a, i, z):
    a[0] = f(a, i, z)
