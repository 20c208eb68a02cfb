# Pairwise distances as nearest-neighbour code writes them: a square matrix from np.empty with
# a tuple shape, a helper for one distance, each point's nearest other point, and both arrays
# returned.
import math

import numpy as np
from numba import njit


@njit
def distance(points, i, j):
    acc = 0.0
    for k in range(points.shape[1]):
        d = points[i, k] - points[j, k]
        acc += d * d
    return math.sqrt(acc)


@njit
def distance_matrix(points):
    n = points.shape[0]
    out = np.empty((n, n))
    for i in range(n):
        out[i, i] = 0.0
        for j in range(i + 1, n):
            d = distance(points, i, j)
            out[i, j] = d
            out[j, i] = d
    return out


@njit
def nearest(points):
    dist = distance_matrix(points)
    n = dist.shape[0]
    best = np.full(n, -1, dtype=np.intp)
    best_d = np.full(n, np.inf)
    for i in range(n):
        for j in range(n):
            if i != j and dist[i, j] < best_d[i]:
                best_d[i] = dist[i, j]
                best[i] = j
    return dist, best, best_d
