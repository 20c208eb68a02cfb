# A histogram as statistics code writes it: edges from np.arange over the data's range, counts
# in an int64 array, a normalised density in a float32 array, both returned with the edges.
import numpy as np
from numba import njit


@njit
def data_range(x):
    lo = x[0]
    hi = x[0]
    for v in x:
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


@njit
def bin_of(v, lo, width, nbins):
    k = int((v - lo) / width)
    if k >= nbins:
        k = nbins - 1
    return k


@njit
def histogram(x, nbins):
    lo, hi = data_range(x)
    width = (hi - lo) / nbins
    edges = np.arange(nbins + 1, dtype=np.float64)
    for i in range(nbins + 1):
        edges[i] = lo + edges[i] * width
    counts = np.zeros(nbins, dtype=np.int64)
    for v in x:
        counts[bin_of(v, lo, width, nbins)] += 1
    density = np.empty(nbins, np.float32)
    weights = np.ones(nbins, dtype=float)
    weights[0] = 0.5
    total = x.shape[0] * width
    for k in range(nbins):
        density[k] = weights[k] * counts[k] / total
    return counts, edges, density
