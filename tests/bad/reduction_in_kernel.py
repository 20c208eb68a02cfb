# NumPy's array reductions are for @jit functions on the host: numba-cuda has none in kernels,
# nor may a kernel call a @jit function that uses one.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:])


@njit
def total(a):
    return a.sum()


@cuda.jit
def k(a):
    a[0] = np.mean(a) + a.max()
    a[1] = total(a)
