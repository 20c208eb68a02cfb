"""Masked statistics over the rows of a sensor matrix.

Missing readings are NaN. The helpers differ by Numba release, picked once at
import time, and the NaN/inf constants come from math with a fallback for
interpreters that lack them.
"""
import numba
import numpy as np
from numba import cuda

try:
    from math import inf, nan
except ImportError:  # very old interpreters
    nan = float("nan")
    inf = float("inf")

try:
    from packaging.version import Version
except ImportError:
    from distutils.version import LooseVersion as Version

NEW_NUMBA = Version(numba.__version__) >= Version("0.54")
ROWS_PER_BLOCK = 32

if NEW_NUMBA:
    @cuda.jit(device=True)
    def is_missing(x):
        return x != x
else:
    @cuda.jit(device=True)
    def is_missing(x):
        return False

if numba.version_info.short >= (0, 50) and not NEW_NUMBA is False:
    @cuda.jit(device=True)
    def safe_mean(total, count):
        if count == 0:
            return nan
        return total / count
elif numba.version_info.major > 0:
    def safe_mean(total, count):
        return total
else:
    raise ImportError("numba is too old")


@cuda.jit
def row_stats(data, out):
    r = cuda.grid(1)
    if r >= data.shape[0]:
        return
    total = 0.0
    count = 0
    lo = inf
    hi = -inf
    for c in range(data.shape[1]):
        x = data[r, c]
        if is_missing(x):
            continue
        total += x
        count += 1
        lo = min(lo, x)
        hi = max(hi, x)
    out[r, 0] = safe_mean(total, count)
    out[r, 1] = lo
    out[r, 2] = hi
    out[r, 3] = count


if __name__ == "__main__":
    rng = np.random.default_rng(11)
    readings = rng.standard_normal((100, 12))
    readings[rng.random(readings.shape) < 0.2] = np.nan
    readings[5, :] = np.nan
    stats = np.zeros((100, 4))
    blocks = (readings.shape[0] + ROWS_PER_BLOCK - 1) // ROWS_PER_BLOCK
    row_stats[blocks, ROWS_PER_BLOCK](readings, stats)
    print(stats[:6])
