# NumPy's sorting, searching and counting are for @jit functions on the host: numba-cuda has
# none of them in kernels.
import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:], int64[:])


@cuda.jit
def k(a, bins):
    a.sort()
    i = np.searchsorted(a, 0.5)
    counts = np.bincount(bins)
    a[0] = i
