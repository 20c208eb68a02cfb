# @njit(parallel=True): integer reductions, one in the binop form (s = s + x), and
# min/max over int32 values; the results do not depend on the number of threads.
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def int_reductions(v):
    s = 7
    p = 1
    lo = v[0]
    hi = v[0]
    for i in range(0, v.shape[0]):
        pass
    for i in prange(v.shape[0]):
        s = s + v[i] * 3
        if i % 1000 == 0:
            p *= v[i] % 3 + 1
        lo = min(lo, v[i])
        hi = max(hi, v[i])
    return s, p, lo, hi
