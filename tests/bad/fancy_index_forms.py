# Advanced indexing as Numba's CPU target takes it: one 1-D array (a mask or positions) beside
# integers and slices, or integer arrays alone (a[idx, idx]); Ellipsis once, not read whole.
# (A kernel calls the function so that it is typed; its own refusal follows.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], float64[:], boolean[:, :], int64[:, :], int64[:])


@njit
def forms(a, f, m2, i2, idx):
    by_float = f[f]
    by_2d_mask = a[m2]
    by_2d_index = f[i2]
    twice = a[idx, idx]
    two_dots = a[..., 0, ...]
    whole = a[...]
    t = (1, 2)
    on_tuple = t[...]
    dots = ...
    f[idx] = 1j
    return 0.0


@cuda.jit
def k(a, f, m2, i2, idx):
    a[0, 0] = forms(a, f, m2, i2, idx)
