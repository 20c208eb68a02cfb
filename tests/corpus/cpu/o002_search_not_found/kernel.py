"""Event lookups in a sorted timestamp log: search helpers return None when nothing matches,
and the callers test the result before they use it, as log-analysis code does."""
import numpy as np
from numba import njit


@njit
def first_above(values, threshold):
    for i in range(values.shape[0]):
        if values[i] > threshold:
            return i
    return None


@njit
def find_time(times, t, tolerance):
    lo = 0
    hi = times.shape[0] - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if abs(times[mid] - t) <= tolerance:
            return mid
        if times[mid] < t:
            lo = mid + 1
        else:
            hi = mid - 1
    return None


@njit
def last_gap(times, min_gap):
    found = None
    for i in range(1, times.shape[0]):
        if times[i] - times[i - 1] >= min_gap:
            found = i
    return found


@njit
def peak_after(values, start):
    if start is None:
        return -1.0
    best = -np.inf
    for i in range(start, values.shape[0]):   # range takes the Optional as its int64
        best = max(best, values[i])
    return best


@njit
def lookup_report(times, values, probe):
    hits = 0
    misses = 0
    index_sum = 0
    for k in range(probe.shape[0]):
        where = find_time(times, probe[k], 0.05)
        if where is None:
            misses += 1
        else:
            hits += 1
            index_sum += where
    onset = first_above(values, 0.97)
    never = first_above(values, 10.0)
    gap = last_gap(times, 0.3)
    # where things were found, -1 for not found (an Optional stored as its int64)
    where_found = np.empty(3, dtype=np.int64)
    where_found[0] = -1 if onset is None else onset
    where_found[1] = -1 if never is None else never
    where_found[2] = gap if gap is not None else 0
    peak = peak_after(values, onset)      # an Optional passed on to another @njit function
    no_peak = peak_after(values, never)
    shifted = onset + 1 if onset is not None else 0
    return hits, misses, index_sum, where_found, peak, no_peak, shifted
