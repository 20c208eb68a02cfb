"""Exponentially weighted moving averages of many price series.

A generalised ufunc over rows: the smoothing factor is a scalar core
dimension "()", broadcast against the rows, and the output has the row's
length.  The first value seeds the average (pandas' adjust=False).
"""
import numpy as np
from numba import guvectorize, float64


@guvectorize([(float64[:], float64, float64[:])], '(n),()->(n)', target='cuda')
def ewma(x, alpha, out):
    acc = x[0]
    out[0] = acc
    for i in range(1, x.shape[0]):
        acc = alpha * x[i] + (1.0 - alpha) * acc
        out[i] = acc


def span_to_alpha(span):
    return 2.0 / (span + 1.0)


if __name__ == "__main__":
    prices = np.cumsum(np.random.default_rng(0).normal(0, 1, (3, 50)), axis=1) + 100
    print(ewma(prices, span_to_alpha(10))[:, -1])
