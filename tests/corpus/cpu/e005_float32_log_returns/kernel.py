"""Daily float32 price series: log returns, z-scores, a rolling volatility from slices, and
flags, where float32 stays float32 with Python ints and becomes float64 with Python floats."""
import numpy as np
from numba import njit


@njit
def returns_report(prices, window):
    n = prices.shape[0]
    ratio = prices[1:] / prices[:-1]
    logret = np.log(ratio)
    simple = ratio - 1
    mu = np.mean(logret)
    sd = np.std(logret)
    z = (logret - mu) / sd
    scaled = logret * 252.0
    vol = np.zeros(n - window)
    for t in range(n - window):
        chunk = logret[t:t + window - 1]
        dev = chunk - np.mean(chunk)
        vol[t] = np.sqrt(np.sum(dev * dev) / (window - 1))
    big_moves = np.abs(z) > 2
    up = logret > 0
    streak_flags = up[1:] & up[:-1]
    capped = np.minimum(np.maximum(z, -3), 3)
    growth = np.exp(np.sum(logret))
    squared = np.square(simple)
    sign_changes = np.sum(np.sign(logret[1:]) != np.sign(logret[:-1]))
    ok = np.isfinite(logret) & ~np.isnan(z)
    return logret, simple, z, scaled, vol, np.sum(big_moves), np.sum(streak_flags), capped, growth, squared, sign_changes, np.all(ok)
