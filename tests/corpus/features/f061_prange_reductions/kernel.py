# @njit(parallel=True): prange loops on the thread pool, with each of Numba's reduction forms
# (+=, -=, *=, min, max), in both operand orders.
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def reductions(a):
    total = 0
    product = 1.0
    lowest = a[0]
    highest = a[0]
    remaining = 100.0
    for i in prange(a.shape[0]):
        total += i
        product *= 1.0 + a[i] * 1e-4
        lowest = min(lowest, a[i])
        highest = max(a[i], highest)
        remaining -= a[i]
    return total, product, lowest, highest, remaining
