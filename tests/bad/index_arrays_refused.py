# Several index arrays in one subscript: pykern takes 1-D integer arrays as the whole subscript
# (a[rows, cols]); mixed with an integer, with a mask, or stored through with axes left over or
# from a 2-D array, each is a located error.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], int64[:], int64[:], boolean[:])


@njit
def forms(a, r, c, m):
    b = np.zeros((2, 3, 4))
    x = a[r, 1:]  # one index array beside slices: taken
    y = b[r, 0, c]
    z = a[m, c]
    b[r, c] = 1.0
    a[r, c] = np.ones((2, 2))
    return 0.0


@cuda.jit
def k(a, r, c, m):
    a[0, 0] = forms(a, r, c, m)
