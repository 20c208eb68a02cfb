# @njit(parallel=True): every name the body of a prange loop assigns is private to each part
# (temporaries, an inner loop's counter, names assigned on one branch only after being
# assigned on both); a prange inside it runs in order; the outer arrays are shared.
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def row_stats(m, out, scale):
    n, k = m.shape
    for i in prange(n):
        acc = 0.0
        for j in range(k):
            v = m[i, j] * scale
            if v > 0:
                w = v
            else:
                w = -v * 0.5
            acc += w
        out[i, 0] = acc
        biggest = m[i, 0]
        for j in prange(k):
            biggest = max(biggest, m[i, j])
        out[i, 1] = biggest
        out[i, 2] = i * 2 + 1
