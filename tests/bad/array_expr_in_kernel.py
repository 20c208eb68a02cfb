# Whole-array arithmetic is for @jit functions on the host: numba-cuda has none in kernels.
import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:], float64[:])


@cuda.jit
def k(a, b):
    c = a + b
    d = np.sqrt(a)
    e = -a
    f = a > 0.5
    a += 1.0
