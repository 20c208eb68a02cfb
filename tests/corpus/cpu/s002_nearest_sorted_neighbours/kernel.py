"""Nearest neighbours on a line, as trajectory and catalogue matching code does it: the
reference positions are sorted once (argsort keeps the original ids), each query is placed
with np.searchsorted and compared with its two neighbours, and radius counts come from the
left and right insertion points of the window edges."""
import numpy as np
from numba import njit


@njit
def match_sorted(reference, queries, radius):
    order = np.argsort(reference)
    ref = np.sort(reference)
    n = ref.shape[0]
    m = queries.shape[0]
    nearest_id = np.empty(m, dtype=np.int64)
    nearest_dist = np.empty(m, dtype=np.float64)
    for j in range(m):
        q = queries[j]
        k = np.searchsorted(ref, q)
        best = -1
        best_d = np.inf
        if k < n:
            d = abs(ref[k] - q)
            if d < best_d:
                best_d = d
                best = k
        if k > 0:
            d = abs(ref[k - 1] - q)
            if d < best_d:
                best_d = d
                best = k - 1
        nearest_id[j] = order[best]
        nearest_dist[j] = best_d

    # neighbours within the radius: one search per window edge, all at once
    lower = np.empty(m, dtype=np.float64)
    upper = np.empty(m, dtype=np.float64)
    for j in range(m):
        lower[j] = queries[j] - radius
        upper[j] = queries[j] + radius
    first = np.searchsorted(ref, lower, side="left")
    last = np.searchsorted(ref, upper, side="right")
    within = np.empty(m, dtype=np.int64)
    for j in range(m):
        within[j] = last[j] - first[j]

    # exact hits on the grid points 0, 1, 2, ... (ties in the reference count on both sides)
    grid_left = np.searchsorted(ref, 3.0)
    grid_right = np.searchsorted(ref, 3.0, side="right")
    return nearest_id, nearest_dist, within, grid_left, grid_right
