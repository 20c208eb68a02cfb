"""Rolling z-score of a price series, one thread per output sample.

The kernel is compiled eagerly from a signature by calling cuda.jit on a plain
function; isnan comes from math when available.
"""
import numpy as np
from numba import cuda

try:
    from math import isnan, sqrt
except ImportError:
    from numpy import isnan, sqrt

import numba

if numba.version_info.major == 0 and numba.version_info.minor < 40:
    raise RuntimeError("numba too old for this module")

MIN_PERIODS = 3


def _mean_std(x, start, stop):
    total = 0.0
    total2 = 0.0
    count = 0
    for j in range(start, stop):
        v = x[j]
        if isnan(v):
            continue
        total += v
        total2 += v * v
        count += 1
    if count < MIN_PERIODS:
        return np.nan, np.nan, count
    mean = total / count
    var = max(total2 / count - mean * mean, 0.0)
    return mean, sqrt(var), count


mean_std = cuda.jit(device=True)(_mean_std)


def _rolling_zscore(x, out, window):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    start = max(0, i - window + 1)
    mean, std, count = mean_std(x, start, i + 1)
    if count < MIN_PERIODS or std == 0.0:
        out[i] = np.nan
    else:
        out[i] = (x[i] - mean) / std


rolling_zscore = cuda.jit("void(float64[:], float64[:], int64)")(_rolling_zscore)


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    prices = np.cumsum(rng.standard_normal(300)) + 100.0
    prices[rng.random(300) < 0.05] = np.nan
    z = np.zeros_like(prices)
    rolling_zscore[(300 + 127) // 128, 128](prices, z, 20)
    print(np.nanmax(np.abs(z)))
