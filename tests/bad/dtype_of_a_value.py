# np.dtype() takes a type or a dtype's name, not a run-time value.
import numpy as np
from numba import cuda
# pykern: --sig k=void(float32[:])
@cuda.jit
def k(a):
    d = np.dtype(a[0])
    a[0] = 0
