"""Smoothing helpers with optional arguments, as a signal-processing utility module writes them."""
import numpy as np
from numba import njit

DEFAULT_ALPHA = 0.25


@njit
def ema(values, alpha=DEFAULT_ALPHA, start=None):
    out = np.empty_like(values)
    if start is None:
        level = values[0]
    else:
        level = start
    for i in range(values.shape[0]):
        level = alpha * values[i] + (1.0 - alpha) * level
        out[i] = level
    return out


@njit
def clamp(x, lo=None, hi=None):
    if lo is not None:
        x = max(x, lo)
    if hi is None:
        return x
    return min(x, hi)


@njit
def window_mean(values, width=3, center=True):
    n = values.shape[0]
    out = np.zeros(n)
    half = width // 2 if center else 0
    for i in range(n):
        lo = max(0, i - half)
        hi = min(n, lo + width)
        out[i] = values[lo:hi].mean()
    return out


@njit
def smooth(values, limit):
    a = ema(values)
    b = ema(values, 0.5)
    c = ema(values, start=0.0)
    d = ema(values, start=1.0, alpha=0.1)
    e = window_mean(values)
    f = window_mean(values, center=False, width=5)
    top = clamp(a.max(), hi=limit)
    bottom = clamp(a.min(), -limit)
    both = clamp(b[-1], -limit, limit)
    untouched = clamp(c[-1])
    named = clamp(hi=limit, x=d[0], lo=None)
    return a, b, c, d, e, f, top, bottom, both, untouched, named
