"""Sales grouped by (region, month): sums, counts and means in the order groups first appear."""
import numpy as np
from numba import njit, types
from numba.typed import Dict

N_MONTHS = 12
REGION_MONTH = types.UniTuple(types.int64, 2)


@njit
def month_of(day):
    return (day // 30) % N_MONTHS


@njit
def group_totals(region, day, amount):
    sums = Dict.empty(key_type=REGION_MONTH, value_type=types.float64)
    counts = Dict.empty(key_type=REGION_MONTH, value_type=types.int64)
    for i in range(amount.shape[0]):
        key = (region[i], month_of(day[i]))
        sums[key] = sums.get(key, 0.0) + amount[i]
        counts[key] = counts.get(key, 0) + 1
    return sums, counts


@njit
def regional_summary(region, day, amount):
    sums, counts = group_totals(region, day, amount)
    n = len(sums)
    keys = np.empty((n, 2), dtype=np.int64)
    means = np.empty(n)
    i = 0
    for (r, m), total in sums.items():
        keys[i, 0] = r
        keys[i, 1] = m
        means[i] = total / counts[(r, m)]
        i += 1
    # the busiest month per region, as a second dict keyed by region
    busiest = {}
    for (r, m), c in counts.items():
        if r not in busiest or c > counts[(r, busiest[r])]:
            busiest[r] = m
    best = np.full(4, -1, dtype=np.int64)
    for r in busiest:
        best[r] = busiest[r]
    return keys, means, best, sums[(region[0], month_of(day[0]))]
