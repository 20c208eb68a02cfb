# A size computed wrongly reaches np.zeros: Numba's ValueError, raised at the call.
import numpy as np
from numba import njit


@njit
def padded(n, pad):
    width = n - 2 * pad
    out = np.zeros((2, width))
    for i in range(2):
        for j in range(width):
            out[i, j] = i + j
    return out
