# Views of new arrays outliving the names that made them, as real code returns them: a slice
# of a local array returned by a helper, a row of a matrix a helper made, a transpose kept
# after its base is rebound, and _like arrays of an F-ordered argument.
import numpy as np
from numba import njit


@njit
def tail(n, k):
    a = np.arange(n)
    return a[k:]


@njit
def middle_row(n):
    m = np.zeros((3, n))
    for i in range(3):
        for j in range(n):
            m[i, j] = i * 10 + j
    return m[1]


@njit
def views(x, n):
    t = tail(n, 2)
    row = middle_row(n)
    base = np.ones((2, 3), np.float64)
    base[1, 2] = 7.0
    flipped = base.T
    base = np.zeros((1, 1))
    like = np.ones_like(x)
    full = np.full_like(x, 2.5)
    empty = np.empty_like(x, dtype=np.int16)
    for i in range(empty.shape[0]):
        for j in range(empty.shape[1]):
            empty[i, j] = i - j
    if n > 100:
        pick = row
    else:
        pick = row[::2]
    return t, row, flipped, like, full, empty, pick, base[0, 0]
