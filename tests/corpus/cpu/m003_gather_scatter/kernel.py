# Gather and scatter by index as a sparse or graph code writes them: node features gathered
# for each edge's endpoints with table[src], one feature of them with table[dst, j], values
# picked from one row with table[i, idx], a 3-d block sliced on a picked middle axis, results
# scattered back with out[idx] = rows and out[idx] = 1 (repeated positions written again), and
# a mask chosen on the last axis of a cube.
import numpy as np
from numba import njit


@njit
def degree_order(src, n):
    degree = np.zeros(n, dtype=np.int64)
    for e in range(src.shape[0]):
        degree[src[e]] += 1
    order = np.arange(n)
    for i in range(1, n):
        j = i
        while j > 0 and degree[order[j - 1]] < degree[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    return order, degree


@njit
def propagate(features, src, dst, cube):
    n = features.shape[0]
    heads = features[src]
    tails_first = features[dst, 0]
    row_pick = features[1, dst[:2]]
    messages = np.zeros((n, features.shape[1]))
    for e in range(src.shape[0]):
        for j in range(features.shape[1]):
            messages[dst[e], j] += heads[e, j]
    order, degree = degree_order(src, n)
    ranked = messages[order]
    scattered = np.zeros((n, features.shape[1]))
    scattered[order] = ranked
    touched = np.zeros(n, dtype=np.int32)
    touched[dst] = 1
    marks = np.zeros(n, dtype=np.float32)
    fours = np.full(2, 4.0, dtype=np.float32)
    marks[order[:2]] = fours
    picked_middle = cube[:, order[:3], 1]
    front = cube[1, :, src[:2]]
    keep = np.zeros(cube.shape[2], dtype=np.bool_)
    keep[0] = True
    keep[cube.shape[2] - 1] = True
    edges = cube[1, :, keep]
    cube[0, :, keep] = -1.0
    return heads, tails_first, row_pick, ranked, scattered, touched, marks, picked_middle, front, edges, cube, degree
