"""Inventory bookkeeping with Python's sum/min/max over lists, arrays, ranges and tuples,
mixing element types the way a script does (Numba's typing of the totals)."""
import numpy as np
from numba import njit


@njit
def restock_plan(stock, demand, prices, flags, capacity):
    n = stock.shape[0]
    shortfalls = [demand[i] - stock[i] for i in range(n) if demand[i] > stock[i]]
    total_short = sum(shortfalls)            # int32 items: an int64 total
    worst = max(shortfalls) if len(shortfalls) > 0 else 0
    spend = sum([prices[i] * (demand[i] - stock[i]) for i in range(n) if demand[i] > stock[i]], 0.0)
    cheapest = min(prices)                   # float32 array: stays float32
    dearest = max(prices)
    flagged = sum(flags)                     # bool array: counted as int64
    weekly = sum(range(capacity))            # a range
    offset = sum(stock, 100)                 # with a start value
    with_float_start = sum(stock, 0.5)
    f32_total = sum(prices)                  # int64 start + float32 items: float64
    pair_min = min((stock[0], stock[1], stock[2]))
    pair_max = max((1.5, spend, 2.5))
    only = min((worst,))
    smallest_slot = min(range(3, capacity))
    return (total_short, worst, spend, cheapest, dearest, flagged, weekly, offset, with_float_start,
            f32_total, pair_min, pair_max, only, smallest_slot)
