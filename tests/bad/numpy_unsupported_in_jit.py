# A NumPy function pykern's @jit functions do not have yet is named where it is called, with
# what they do have.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[::1])


@njit
def total(a):
    running = np.convolve(a)
    return running[-1]


@cuda.jit
def k(out):
    total(out)
