import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:])
TABLE = np.array([1.0, 2.0])
RAGGED = np.array([[1, 2], [3]])
CHANGED = np.array([1, 2, 3])
CHANGED[0] = 7
FILLED = np.array([1.0, 2.0])
FILLED.fill(0.5)

@cuda.jit
def k(a):
    TABLE[0] = a[0]
    a[1] = RAGGED[0, 0]
    a[2] = CHANGED[0] + FILLED[1]
