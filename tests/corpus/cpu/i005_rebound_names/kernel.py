"""Window helpers whose names are rebound to values of another type, as quick analysis code does.

Numba gives every assignment of a name its own version: a parameter passed an int and later
given a float, or a counter that starts as an int and grows by floats, has the float type only
where both values can arrive; reads before the rebinding keep the int.
"""
import numpy as np
from numba import njit


@njit
def clip_width(width, floor):
    # width arrives as an int; a float floor replaces it only for small windows
    if width < floor:
        width = floor
    return width


@njit
def centre_value(values, n):
    mid = n // 2          # n is still an int here: mid is an index
    pivot = values[mid]
    if n % 2 == 0:
        n = n - 0.5       # from here on n may be a float
    return pivot, n


@njit
def weighted_total(values, scale):
    total = 0             # an int until the loop adds floats
    count = 0
    for v in values:
        if v > 0:
            total += v * scale
            count += 1
    if count == 0:
        total = -1
    return total, count


@njit
def summarise(values, width):
    out = np.zeros(6)
    out[0] = clip_width(width, 2.5)
    out[1] = clip_width(width + 3, 2.5)
    pivot, n = centre_value(values, values.shape[0])
    out[2] = pivot
    out[3] = n
    total, count = weighted_total(values, 0.5)
    out[4] = total
    out[5] = count
    return out, clip_width(width, 2.5), centre_value(values, 7)[1], tail_mean(values, 5), tail_mean(values, 0)


@njit
def tail_mean(values, k):
    tail = values[values.shape[0] - k:]
    if k <= 0:
        tail = None       # from here on tail is an Optional array
    if tail is None:
        return 0.0
    return tail.mean()    # the array inside the Optional
