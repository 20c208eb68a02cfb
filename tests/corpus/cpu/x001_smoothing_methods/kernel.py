"""Smoothing a noisy sensor trace, the method chosen by name as a keyword with a default."""
import numpy as np
from numba import njit

DEFAULT_METHOD = "median"
METHODS = ("mean", "median", "max")


@njit
def window_value(window, method):
    if method == "mean":
        return window.mean()
    elif method == "median":
        return np.median(window)
    elif method == "max":
        return window.max()
    raise ValueError("unknown smoothing method", method)


@njit
def smooth(trace, half_width, method="mean"):
    n = trace.shape[0]
    out = np.empty(n)
    for i in range(n):
        lo = max(0, i - half_width)
        hi = min(n, i + half_width + 1)
        out[i] = window_value(trace[lo:hi], method)
    return out


@njit
def method_code(method):
    # position of the method among the known ones, -1 when unknown
    for k in range(len(METHODS)):
        if METHODS[k] == method:
            return k
    return -1


@njit
def smooth_all(trace, half_width):
    by_mean = smooth(trace, half_width)
    by_median = smooth(trace, half_width, DEFAULT_METHOD)
    by_max = smooth(trace, half_width, method="max")
    codes = method_code("mean") * 100 + method_code(DEFAULT_METHOD) * 10 + method_code("mode")
    return by_mean, by_median, by_max, codes
