import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:])

@njit
def misuse(x):
    cube = np.zeros((2, 2, 2))
    d = np.diag(cube)                 # Numba: Input must be 1- or 2-d.
    w = np.hanning(x)                 # Numba: M must be an integer
    e = np.diag(np.ones(3), 0.5)      # k must be an integer
    return d[0] + w[0] + e[0, 0]

@cuda.jit
def k(a):
    a[0] = misuse(a[1])
