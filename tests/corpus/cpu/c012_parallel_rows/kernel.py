# Per-row work on a thread pool as data-processing code writes it: an output made before a
# parallel loop, a scratch array made in each iteration, row views of the input read by a
# helper, and a reduction beside them.
import numpy as np
from numba import njit, prange


@njit
def normalise_into(row, out):
    lo = row[0]
    hi = row[0]
    for v in row:
        lo = min(lo, v)
        hi = max(hi, v)
    span = hi - lo if hi > lo else 1.0
    for j in range(row.shape[0]):
        out[j] = (row[j] - lo) / span


@njit(parallel=True)
def row_features(x):
    n, m = x.shape
    features = np.zeros((n, 3))
    total = 0.0
    for i in prange(n):
        scaled = np.empty(m)
        normalise_into(x[i], scaled)
        above = 0
        acc = 0.0
        for j in range(m):
            acc += scaled[j]
            if scaled[j] > 0.5:
                above += 1
        features[i, 0] = acc / m
        features[i, 1] = above
        features[i, 2] = scaled[m - 1]
        total += acc
    return features, total
