"""Binning particles, the way event-histogram kernels do: a device function gives the bin of a
value, or None when the value falls outside the histogram. Numba types its result
Optional(int64); as an atomic's index (numba-cuda types it intp), a range bound, an argument of
math functions, abs, min and int, or in arithmetic it is the int64 itself, and `is None` tests
which it is. An array index takes it through int(), as Numba's getitem takes no Optional."""
import math

import numpy as np
from numba import cuda

LOW = -2.0
HIGH = 2.0
NBINS = 16
WIDTH = (HIGH - LOW) / NBINS


@cuda.jit(device=True)
def bin_of(x):
    if x < LOW or x >= HIGH:
        return None
    return int((x - LOW) / WIDTH)


@cuda.jit(device=True)
def cell_of(x, y, n):
    bx = bin_of(x)
    by = bin_of(y)
    if bx is None or by is None:
        return None
    return ((bx * n) // NBINS) * n + (by * n) // NBINS


@cuda.jit(device=True)
def first_above(row, threshold):
    for k in range(row.shape[0]):
        if row[k] > threshold:
            return k
    return None


@cuda.jit(device=True)
def safe_log_ratio(a, b):
    if a <= 0.0 or b <= 0.0:
        return None
    return math.log(a / b)


@cuda.jit
def bin_events(xs, ys, hist, grid, firsts, stats):
    i = cuda.grid(1)
    if i >= xs.shape[0]:
        return
    b = bin_of(xs[i])
    if b is not None:
        cuda.atomic.add(hist, b, 1)
        stats[i, 0] = b * WIDTH + LOW
    else:
        stats[i, 0] = np.nan
    c = cell_of(xs[i], ys[i], 4)
    if c is not None:
        cuda.atomic.add(grid, c, 1)
    k = first_above(xs, ys[i])
    firsts[i] = -1 if k is None else k
    if k is not None:
        total = 0.0
        for m in range(k):
            total += xs[m]
        stats[i, 1] = total + xs[int(k)] + min(k, 5)
    r = safe_log_ratio(xs[i] + 3.0, ys[i] + 3.0)
    if r is not None:
        stats[i, 2] = abs(r) + math.sqrt(r * r + 1.0)
