"""Energy spectrum of detector hits with logarithmic (non-uniform) bins.

Bin lookup is a binary search over the bin edges that returns None for hits
outside the range, which the kernel counts as overflow.  Weighted counts use
float64 atomics.
"""
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def find_bin(edges, x):
    """Index b with edges[b] <= x < edges[b + 1], or None outside the edges."""
    lo = 0
    hi = edges.shape[0] - 1
    if x < edges[lo] or x >= edges[hi]:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if x < edges[mid]:
            hi = mid
        else:
            lo = mid
    return lo


@cuda.jit
def spectrum(energy, weight, edges, counts, sumw, overflow):
    start = cuda.grid(1)
    for i in range(start, energy.shape[0], cuda.gridsize(1)):
        b = find_bin(edges, energy[i])
        if b is None:
            cuda.atomic.add(overflow, 0, 1)
            continue
        cuda.atomic.add(counts, b, 1)
        cuda.atomic.add(sumw, b, weight[i])


def log_edges(lo, hi, n):
    return np.logspace(np.log10(lo), np.log10(hi), n + 1)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    e = rng.exponential(50.0, 10000)
    w = rng.uniform(0.5, 1.5, e.size)
    ed = log_edges(1.0, 500.0, 20)
    c = np.zeros(20, np.int32); s = np.zeros(20); o = np.zeros(1, np.int32)
    spectrum[8, 128](e, w, ed, c, s, o)
    print(c, o)
