void(float64[:])
from numba import cuda
import numpy as np
# pykern: --sig k=void(float64[:])
TABLE = np.zeros(10)

@cuda.jit
def k(a):
    a[0] = TABLE
