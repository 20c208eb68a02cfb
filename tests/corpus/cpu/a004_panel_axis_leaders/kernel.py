"""A panel of asset prices (assets by days, int32 cents): per-asset totals and per-day leaders
from reductions along an axis, running positions from np.cumsum along the day axis, second
differences for turning points, and a float32 panel's column sums."""
import numpy as np
from numba import njit


@njit
def panel_leaders(prices, volumes):
    assets, days = prices.shape
    totals = np.sum(prices, axis=1)                 # int32 adds up in int64
    per_day = prices.sum(axis=0)
    leaders = np.argmax(prices, axis=0)             # the leading asset each day
    laggards = prices.argmin(axis=0)
    best_day = np.argmax(prices, axis=-1)
    positions = np.cumsum(volumes, axis=1)          # running position of each asset
    flat_positions = volumes.cumsum()
    changes = np.diff(prices)
    turns = np.diff(prices, n=2)
    turning = np.zeros(assets, dtype=np.int64)
    for a in range(assets):
        for d in range(turns.shape[1]):
            if changes[a, d] > 0 and changes[a, d + 1] < 0:
                turning[a] += 1
    # the most volatile asset by its range of daily changes
    widest = 0
    widest_range = -1
    for a in range(assets):
        r = np.ptp(changes[a])
        if r > widest_range:
            widest_range = r
            widest = a
    leader_counts = np.zeros(assets, dtype=np.int64)
    for d in range(days):
        leader_counts[leaders[d]] += 1
    scaled = np.empty((assets, days), dtype=np.float32)
    for a in range(assets):
        for d in range(days):
            scaled[a, d] = prices[a, d] / 100.0
    column_sums = np.sum(scaled, axis=0)
    average_first = np.sum(scaled[:, 0]) / assets
    return (totals, per_day, leaders, laggards, best_day, positions, flat_positions, changes,
            turning, widest, widest_range, leader_counts, column_sums, average_first,
            np.argmin(prices[0], axis=0), np.sum(prices[1], axis=-1))
