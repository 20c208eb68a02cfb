# A new axis in an index (a[None], a[np.newaxis, :]), a.reshape(()) (in a kernel) and np.atleast_1d of a
# number (which Numba refuses) are not built: each is named, with the form that works
# (np.expand_dims, a scalar, a 1-element array). np.asarray(3.0) is a 0-d array.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[::1])


@njit
def shapes(a):
    row = a[None]
    column = a[np.newaxis, :]
    single = a.reshape(())
    boxed = np.asarray(3.0)
    lifted = np.atleast_1d(2.0)
    return 0


@cuda.jit
def k(a):
    a[0] = shapes(a)
