# A @jit function validates its input and raises: Numba's CPU target always raises (no debug
# flag needed), with the exception's class and message as written.
import numpy as np
from numba import njit


@njit
def _check_finite(x):
    if not np.isfinite(x):
        raise ValueError("input holds a non-finite value")


@njit
def normalised_sum(values, scale):
    if scale <= 0:
        raise ValueError("scale must be positive")
    total = 0.0
    for i in range(values.shape[0]):
        _check_finite(values[i])
        total += values[i] / scale
    return total
