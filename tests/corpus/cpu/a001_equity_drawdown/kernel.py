"""Equity curve of a strategy from its daily returns: compounding with np.cumprod, log-return
paths with np.cumsum, drawdown depth and length, the spread of daily moves (np.diff, np.ptp) and
the tail quantiles of the drawdowns (np.percentile with an array of q, np.quantile)."""
import math

import numpy as np
from numba import njit


@njit
def equity_drawdown(returns, start_value):
    n = returns.shape[0]
    growth = np.empty(n)
    log_growth = np.empty(n)
    for i in range(n):
        growth[i] = 1.0 + returns[i]
        log_growth[i] = math.log1p(returns[i])
    equity = np.cumprod(growth)
    log_path = np.cumsum(log_growth)
    # running peak and the drawdown below it
    drawdowns = np.empty(n)
    peak = 1.0
    longest = 0
    current = 0
    for i in range(n):
        if equity[i] > peak:
            peak = equity[i]
            current = 0
        else:
            current += 1
            if current > longest:
                longest = current
        drawdowns[i] = equity[i] / peak - 1.0
    worst_day = np.argmin(drawdowns)
    moves = np.diff(equity)
    second = np.diff(equity, 2)
    swings = np.ptp(moves)
    levels = np.empty(3)
    levels[0] = 5.0
    levels[1] = 25.0
    levels[2] = 50.0
    bands = np.percentile(drawdowns, levels)
    tail = np.quantile(drawdowns, 0.1)
    final = start_value * equity[n - 1]
    drift = log_path[n - 1] / n
    acceleration = 0.0
    for i in range(second.shape[0]):
        acceleration += abs(second[i])
    # whole-run sums, cumulative sums of integers (np.cumsum's int64 accumulator)
    up_days = np.empty(n, dtype=np.int32)
    for i in range(n):
        up_days[i] = 1 if returns[i] > 0 else 0
    streak_counts = up_days.cumsum()
    return (final, drift, worst_day, longest, swings, bands, tail, acceleration,
            streak_counts, equity.cumsum()[n - 1], np.sum(moves, dtype=np.float32))
