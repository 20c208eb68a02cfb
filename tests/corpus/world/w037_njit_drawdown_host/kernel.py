"""Portfolio risk statistics: GPU log returns, CPU drawdown analysis.

The return series of many assets are computed by a kernel; the path
statistics that are inherently sequential (running peak, maximum drawdown,
longest underwater spell) run in @njit functions on the host.
"""
import math

import numpy as np
from numba import cuda, njit, jit

TRADING_DAYS = 252


@cuda.jit
def log_returns(prices, out):
    a, t = cuda.grid(2)
    if a < prices.shape[0] and 0 < t < prices.shape[1]:
        out[a, t - 1] = math.log(prices[a, t] / prices[a, t - 1])


@njit(cache=False)
def annualised_vol(returns):
    n = returns.shape[0]
    mean = 0.0
    for r in returns:
        mean += r
    mean /= n
    ss = 0.0
    for r in returns:
        ss += (r - mean) ** 2
    return math.sqrt(ss / (n - 1)) * math.sqrt(TRADING_DAYS)


@njit
def max_drawdown(prices):
    """Largest peak-to-trough fall, with the peak and trough positions."""
    peak = prices[0]
    peak_at = 0
    worst = 0.0
    worst_peak = 0
    worst_trough = 0
    for t in range(1, prices.shape[0]):
        p = prices[t]
        if p > peak:
            peak = p
            peak_at = t
        dd = (peak - p) / peak
        if dd > worst:
            worst = dd
            worst_peak = peak_at
            worst_trough = t
    return worst, worst_peak, worst_trough


@jit(nopython=True)
def longest_underwater(prices):
    peak = prices[0]
    run = 0
    longest = 0
    for p in prices[1:]:
        if p >= peak:
            peak = p
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    return longest


if __name__ == "__main__":
    rng = np.random.default_rng(12)
    px = 100 * np.exp(np.cumsum(rng.normal(0, 0.01, (4, 500)), axis=1))
    rets = np.zeros((4, 499))
    log_returns[(1, 32), (4, 16)](px, rets)
    print([annualised_vol(r) for r in rets], max_drawdown(px[0]), longest_underwater(px[0]))
