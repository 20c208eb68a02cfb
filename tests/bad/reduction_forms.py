# Reductions in @njit functions: the arguments Numba's overloads lack (axis= on mean, max,
# cumprod and nanvar; dtype= on mean; ddof on var and std), the forms pykern has not built
# (a tuple of axes), wrong argument types, and element types refused. (A kernel calls the
# function so that it is typed; its own refusal follows.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], complex128[:], int64, boolean[:], uint8[:])


@njit
def stats(a, z, n, b, u):
    per_column = np.mean(a, axis=0)
    wide = a.mean(dtype=np.float64)
    rows = np.max(a, 1)
    spread = np.std(a, ddof=1)
    where = np.argmin(z)
    scalar = np.median(n)
    nothing = np.sum()
    method = n.sum()
    both = np.sum(a, axis=(0, 1))
    half = np.sum(a, axis=1.5)
    unknown = np.sum(a, dtype=n)
    twice = np.sum(a, 0, axis=1)
    outside = np.sum(a, 0, np.float64, a)
    running = np.cumprod(a, axis=0)
    nan_rows = np.nanvar(a, axis=0)
    truth_range = np.ptp(b)
    byte_range = np.ptp(u)
    levels = np.percentile(a, (10.0, 90.0))
    no_q = np.percentile(a)
    steps = np.diff(a, 1.5)
    return 0.0


@cuda.jit
def k(a, z, n, b, u):
    a[0, 0] = stats(a, z, n, b, u)
