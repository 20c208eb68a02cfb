# Several index arrays in one subscript: pykern takes 1-D integer arrays beside integers and
# slices (a[rows, cols], b[rows, 0, cols], b[rows, :, cols] = v), as Numba 0.68 does; a mask
# beside another index array (which Numba types and then cannot compile), a float or a 2-D index
# array among them, and a 2-D source stored through a[rows, cols] are each a located error.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], int64[:], int64[:], boolean[:])


@njit
def forms(a, r, c, m):
    b = np.zeros((2, 3, 4))
    x = a[r, 1:]  # one index array beside slices: taken
    y = b[r, 0, c]  # taken
    b[r, c] = 1.0  # taken
    z = a[m, c]
    w = b[m[:2], 0, c]
    v = b[r, :, c.astype(np.float64)]
    u = b[r, 0, np.zeros((2, 2), dtype=np.int64)]
    a[r, c] = np.ones((2, 2))
    return 0.0


@cuda.jit
def k(a, r, c, m):
    a[0, 0] = forms(a, r, c, m)
