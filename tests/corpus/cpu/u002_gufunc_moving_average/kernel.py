"""Trailing moving averages of several price series at once, as a generalized ufunc.

Each row is one instrument; the window is a plain integer, broadcast to every row.
"""
import numpy as np
from numba import guvectorize, float64, int64


@guvectorize([(float64[:], int64, float64[:])], '(n),()->(n)', nopython=True)
def trailing_mean(prices, window, out):
    acc = 0.0
    for i in range(prices.shape[0]):
        acc += prices[i]
        if i >= window:
            acc -= prices[i - window]
            out[i] = acc / window
        else:
            out[i] = acc / (i + 1)


if __name__ == "__main__":
    series = np.cumsum(np.random.default_rng(3).normal(size=(4, 30)), axis=1)
    print(trailing_mean(series, 5)[:, -1])
