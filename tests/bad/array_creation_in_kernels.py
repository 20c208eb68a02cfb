# A kernel cannot allocate, as in Numba-CUDA: np.zeros, np.arange, a.copy() and an @njit
# function that makes an array are refused in kernels; they work in @jit functions on the host.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[::1])


@njit
def scratch(n):
    buffer = np.empty(n, dtype=np.float64)
    buffer[0] = 1.0
    return buffer[0]


@cuda.jit
def k(out):
    tmp = np.zeros(4)
    idx = np.arange(3)
    mine = out.copy()
    out[0] = scratch(3)
