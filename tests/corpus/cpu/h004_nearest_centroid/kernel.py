# Nearest-centroid assignment as clustering code writes it: points given column-major are
# made C-contiguous first (np.ascontiguousarray of a transpose), the best distance starts at
# np.inf, ties are broken with a tolerance from np.finfo, counts are clipped at np.iinfo's
# maximum of a small integer type, centroids come from a nested tuple literal with a dtype,
# a metric matrix from np.identity, and the results are reshaped and transposed for the
# caller (np.reshape, np.transpose, np.ravel of a transposed view, np.asarray of an array).
import numpy as np
from numba import njit


@njit
def squared_distance(point, centre, metric):
    total = 0.0
    for a in range(point.shape[0]):
        for b in range(point.shape[0]):
            total += (point[a] - centre[a]) * metric[a, b] * (point[b] - centre[b])
    return total


@njit
def assign(columns):
    points = np.ascontiguousarray(columns.T)
    centres = np.array(((0.0, 0.0), (1.0, 1.0), (-1.0, 0.5)), dtype=np.float64)
    metric = np.identity(2)
    metric[1, 1] = 2.0
    tolerance = 8.0 * np.finfo(np.float64).eps
    n = points.shape[0]
    labels = np.empty(n, dtype=np.int64)
    best = np.full(n, np.inf)
    for i in range(n):
        for c in range(centres.shape[0]):
            d = squared_distance(points[i], centres[c], metric)
            if d < best[i] - tolerance:
                best[i] = d
                labels[i] = c
    cap = np.iinfo(np.int8).max
    counts = np.zeros(centres.shape[0], dtype=np.int8)
    for i in range(n):
        if counts[labels[i]] < cap:
            counts[labels[i]] += 1
    floor = np.finfo(np.float32).tiny
    spread = np.empty(centres.shape[0])
    for c in range(centres.shape[0]):
        spread[c] = max(floor, 0.0)
    for i in range(n):
        spread[labels[i]] += best[i]
    grid = np.reshape(labels, (2, -1))
    flipped = np.transpose(grid)
    by_column = np.ravel(flipped)
    same = np.asarray(best)
    same[0] = -np.inf
    single = np.asarray(best, dtype=np.float32)
    limits = np.array([np.finfo(np.float32).max, np.finfo(np.float64).min, np.iinfo(np.int16).min])
    return points, labels, best, counts, spread, grid, flipped, by_column, single, limits
