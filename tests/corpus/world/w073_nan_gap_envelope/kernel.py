"""Rolling envelope (min / max / range) of a gauge record with NaN gaps.

Written the way the NumPy prototype was: the running extremes start at the
first sample of the window and are updated with the builtins min() and
max(), so a NaN at the window start poisons the window while a NaN later in
it is skipped (Python's comparison semantics, which Numba keeps).  Windows
are also flagged when they contain any gap.
"""
import math

import numpy as np
from numba import cuda

WINDOW = 5


@cuda.jit
def envelope(x, lo, hi, span, has_gap):
    i = cuda.grid(1)
    n = x.shape[0]
    if i > n - WINDOW:
        return
    a = x[i]
    b = x[i]
    gap = math.isnan(x[i])
    for k in range(i + 1, i + WINDOW):
        a = min(a, x[k])
        b = max(b, x[k])
        gap = gap or math.isnan(x[k])
    lo[i] = a
    hi[i] = b
    span[i] = b - a
    has_gap[i] = gap


if __name__ == "__main__":
    x = np.array([1.0, 3.0, np.nan, 2.0, 5.0, 4.0, np.nan, np.nan, 0.5, 7.0])
    m = x.size - WINDOW + 1
    lo = np.zeros(m); hi = np.zeros(m); sp = np.zeros(m); g = np.zeros(m, np.bool_)
    envelope[1, 32](x, lo, hi, sp, g)
    print(lo, hi, g)
