"""Standardised log returns of a price series, with the input checked on the way.

Numba cannot re-raise the exception a handler caught, so the check's failure is noted in the
handler and raised again, with the caller's own message, after the try statement: the caller
of summary() sees that ValueError.
"""
import numpy as np
from numba import njit


@njit
def log_returns(prices):
    out = np.empty(prices.shape[0] - 1)
    for i in range(1, prices.shape[0]):
        if prices[i] <= 0.0 or prices[i - 1] <= 0.0:
            raise ValueError("non-positive price")
        out[i - 1] = np.log(prices[i] / prices[i - 1])
    return out


@njit
def standardised_returns(prices):
    bad_input = False
    try:
        r = log_returns(prices)
    except Exception:
        bad_input = True
    if bad_input:
        raise ValueError("prices must all be positive to standardise their returns")
    return (r - r.mean()) / r.std()


@njit
def summary(prices):
    z = standardised_returns(prices)
    return z.max(), z.min(), np.abs(z).sum()
