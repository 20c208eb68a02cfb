# Whole-array reductions in @njit functions: the axis=, dtype= and positional-axis forms are not
# built yet, Numba's var and std take no ddof, and some element types are refused. (A kernel
# calls the function so that it is typed; its own refusal follows.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], complex128[:], int64)


@njit
def stats(a, z, n):
    per_column = np.sum(a, axis=0)
    wide = a.mean(dtype=np.float64)
    rows = np.max(a, 1)
    spread = np.std(a, ddof=1)
    where = np.argmin(z)
    scalar = np.median(n)
    nothing = np.sum()
    method = n.sum()
    return 0.0


@cuda.jit
def k(a, z, n):
    a[0, 0] = stats(a, z, n)
