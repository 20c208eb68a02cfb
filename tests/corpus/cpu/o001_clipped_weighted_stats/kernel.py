"""Robust summaries of a sensor trace: a clipped mean whose bounds default to None, a weighted
mean whose weights may be left out, and a report that calls them as an analysis script does."""
import numpy as np
from numba import njit

MIN_SAMPLES = 3


@njit
def clipped_mean(x, lo=None, hi=None):
    if lo is None:
        lo = 0.0
    if hi is None:
        hi = np.inf
    total = 0.0
    n = 0
    for v in x:
        if lo <= v <= hi:
            total += v
            n += 1
    if n < MIN_SAMPLES:
        return np.nan
    return total / n


@njit
def weighted_mean(x, weights=None, scale=None):
    if weights is None:
        mean = x.sum() / x.shape[0]
    else:
        acc = 0.0
        wsum = 0.0
        for i in range(x.shape[0]):
            acc += weights[i] * x[i]
            wsum += weights[i]
        mean = acc / wsum
    return mean if scale is None else mean * scale


@njit
def spread(x, center=None):
    c = x.mean() if center is None else center
    worst = 0.0
    for v in x:
        d = abs(v - c)
        if d > worst:
            worst = d
    return worst


@njit
def trace_report(trace, weights, ceiling):
    full = clipped_mean(trace)                 # both bounds left to None
    upper = clipped_mean(trace, None, ceiling)  # None passed explicitly
    band = clipped_mean(trace, 0.25, ceiling)
    ints = clipped_mean(trace, 1, 2)            # int bounds compare with the float samples
    narrow = clipped_mean(trace, ceiling, ceiling)  # too few samples: nan
    plain = weighted_mean(trace)
    weighted = weighted_mean(trace, weights)
    scaled = weighted_mean(trace, weights, 100.0)
    about_mean = spread(trace)
    about_half = spread(trace, 0.5)
    return full, upper, band, ints, narrow, plain, weighted, scaled, about_mean, about_half
