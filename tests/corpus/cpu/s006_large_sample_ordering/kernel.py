"""Ordering a large sample as a Monte Carlo post-processing step does: empirical CDF values
by stable ranks of binned (tied) readings, the order of the distinct raw readings, the sorted
float32 readings with their dropouts (NaN) last, distinct bin labels, and the median gap
between consecutive sorted values. Sizes large enough for the fast sorting path."""
import numpy as np
from numba import njit


@njit
def order_sample(raw, dropouts):
    n = raw.shape[0]
    binned = np.empty(n, dtype=np.int64)
    for i in range(n):
        binned[i] = int(np.floor(raw[i] * 4.0))
    stable = np.argsort(binned, kind="mergesort")
    cdf = np.empty(n, dtype=np.float64)
    for r in range(n):
        cdf[stable[r]] = (r + 1.0) / n

    order = np.argsort(raw)  # distinct floats: one order whatever the algorithm
    quick_binned = np.argsort(binned)  # tied keys: Numba's quicksort order

    readings = np.empty(n, dtype=np.float32)
    for i in range(n):
        readings[i] = np.float32(raw[i])
        if dropouts[i] % 97 == 0:
            readings[i] = np.nan
    sorted_readings = np.sort(readings)
    labels = np.unique(binned)

    ordered = np.sort(raw)
    gaps = np.empty(n - 1, dtype=np.float64)
    for i in range(n - 1):
        gaps[i] = ordered[i + 1] - ordered[i]
    gaps.sort()
    median_gap = gaps[(n - 1) // 2]
    return cdf, order, quick_binned, sorted_readings, labels, median_gap
