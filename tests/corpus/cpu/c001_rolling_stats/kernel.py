# Rolling statistics as time-series code writes them: prefix sums in a new array, windows
# read from it, helpers that take and return arrays, and the arrays returned as a tuple.
import numpy as np
from numba import njit


@njit
def prefix_sums(x):
    out = np.zeros(x.shape[0] + 1)
    for i in range(x.shape[0]):
        out[i + 1] = out[i] + x[i]
    return out


@njit
def rolling_mean(x, window):
    sums = prefix_sums(x)
    n = x.shape[0]
    means = np.full(n, np.nan)
    for i in range(window - 1, n):
        means[i] = (sums[i + 1] - sums[i + 1 - window]) / window
    return means


@njit
def rolling_std(x, window, means):
    n = x.shape[0]
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        if i < window - 1:
            out[i] = np.nan
            continue
        acc = 0.0
        for j in range(i + 1 - window, i + 1):
            d = x[j] - means[i]
            acc += d * d
        out[i] = np.sqrt(acc / (window - 1))
    return out


@njit
def rolling_stats(x, window):
    means = rolling_mean(x, window)
    stds = rolling_std(x, window, means)
    zscores = np.zeros_like(x)
    count = 0
    for i in range(x.shape[0]):
        if stds[i] > 0.0:
            zscores[i] = (x[i] - means[i]) / stds[i]
            count += 1
    return means, stds, zscores, count
