"""A histogram with an optional range: the bounds travel as a tuple whose items may be None
through two helpers, and a bound left as None is taken from the data, as plotting code does."""
import numpy as np
from numba import njit

NBINS = 8


@njit
def resolve_bounds(x, lo, hi):
    # a None bound is the data's own
    if lo is None:
        lo = x.min()
    if hi is None:
        hi = x.max()
    return lo, hi


@njit
def bin_counts(x, lo=None, hi=None, nbins=NBINS):
    lo, hi = resolve_bounds(x, lo, hi)
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    for v in x:
        if v < lo or v > hi:
            continue
        k = int((v - lo) / width)
        if k == nbins:
            k = nbins - 1
        counts[k] += 1
    return counts


@njit
def pick_limit(limits, use_default):
    # Optional in a tuple: the upper bound is a value or None
    if use_default:
        return (limits[0], None)
    return (limits[0], limits[1])


@njit
def binned_summary(x, limits):
    auto = bin_counts(x)
    lower = bin_counts(x, limits[0])
    both = bin_counts(x, limits[0], limits[1])
    upper_only = bin_counts(x, None, limits[1], 4)
    lo_a, hi_a = resolve_bounds(x, None, None)
    lo_b, hi_b = resolve_bounds(x, limits[0], None)
    cfg = pick_limit(limits, False)
    top = cfg[1]
    capped = 0.0
    if top is not None:
        capped = top * 2.0
    open_cfg = pick_limit(limits, True)
    tops = np.empty(2)
    tops[0] = capped
    tops[1] = -1.0 if open_cfg[1] is None else open_cfg[1]
    return auto, lower, both, upper_only, lo_a, hi_a, lo_b, hi_b, tops
