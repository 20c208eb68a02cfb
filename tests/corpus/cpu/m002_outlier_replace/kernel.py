# Outlier handling in a sensor series as cleaning code writes it: readings further than k
# standard deviations from the mean are flagged in a mask, replaced by a fill value with
# a[mask] = v, the flagged ones are kept aside with a[mask], a list of known bad samples is
# overwritten by position with a[idx] = values, and whole channels are reset with a[...] = 0.
import numpy as np
from numba import njit


@njit
def mean_std(x):
    total = 0.0
    for v in x:
        total += v
    mean = total / x.shape[0]
    spread = 0.0
    for v in x:
        spread += (v - mean) ** 2
    return mean, np.sqrt(spread / x.shape[0])


@njit
def flag_outliers(x, k):
    mean, std = mean_std(x)
    flags = np.zeros(x.shape[0], dtype=np.bool_)
    count = 0
    for i in range(x.shape[0]):
        if abs(x[i] - mean) > k * std:
            flags[i] = True
            count += 1
    return flags, count, mean


@njit
def clean(series, bad_samples, k, channels):
    cleaned = series.copy()
    flags, count, mean = flag_outliers(cleaned, k)
    removed = cleaned[flags]
    cleaned[flags] = mean
    replacement = np.empty(bad_samples.shape[0])
    for j in range(bad_samples.shape[0]):
        replacement[j] = -1.0 - j
    cleaned[bad_samples] = replacement
    ints = np.zeros(series.shape[0], dtype=np.int32)
    ints[flags] = 7
    ints[bad_samples] = 2.9
    grid = np.ones((channels, 5))
    dead = np.zeros(channels, dtype=np.bool_)
    dead[channels - 1] = True
    grid[dead] = 0.0
    grid[0, ...] = 3.0
    grid[..., 4] = cleaned[:channels]
    whole = np.empty((2, 3), dtype=np.float32)
    whole[...] = 1.5
    view = whole[()]
    view[1, 1] = 2.5
    return cleaned, removed, count, ints, grid, whole, whole[..., 1], grid[1, ...]
