# NumPy 2.0 removed np.NINF, np.PINF and np.NAN; Numba 0.68 runs with NumPy 2, where a function
# reading them does not compile. Each is named with what to write instead.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:])


@njit
def lowest(a):
    best = np.PINF
    worst = np.NINF
    missing = np.NAN
    for x in a:
        best = min(best, x)
    return best + worst + missing


@cuda.jit
def k(a):
    lowest(a)
