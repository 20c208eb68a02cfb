# Trading signals as finance code writes them: an exponentially weighted mean in np.empty_like,
# the running peak and drawdown in new arrays, positions from a crossing rule in an int8 array,
# and the worst drawdown and its index returned beside the arrays.
import numpy as np
from numba import njit


@njit
def ewma(x, alpha):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, x.shape[0]):
        out[i] = alpha * x[i] + (1.0 - alpha) * out[i - 1]
    return out


@njit
def drawdowns(prices):
    peak = np.empty(prices.shape[0])
    dd = np.zeros(prices.shape[0])
    running = prices[0]
    for i in range(prices.shape[0]):
        if prices[i] > running:
            running = prices[i]
        peak[i] = running
        dd[i] = (running - prices[i]) / running
    return peak, dd


@njit
def signals(prices, fast, slow):
    f = ewma(prices, fast)
    s = ewma(prices, slow)
    position = np.zeros(prices.shape[0], dtype=np.int8)
    for i in range(1, prices.shape[0]):
        if f[i] > s[i]:
            position[i] = 1
        elif f[i] < s[i]:
            position[i] = -1
    peak, dd = drawdowns(prices)
    worst = 0.0
    at = 0
    for i in range(dd.shape[0]):
        if dd[i] > worst:
            worst = dd[i]
            at = i
    return position, f, dd, worst, at
