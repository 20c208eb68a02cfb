# k nearest neighbours of each query as search code writes it: a bounded insertion into
# per-query arrays of the best distances and indices, kept sorted, in 2-d arrays made with
# np.full, and the inputs' shapes read from their .shape tuples.
import numpy as np
from numba import njit


@njit
def squared_distance(a, i, b, j):
    acc = 0.0
    for k in range(a.shape[1]):
        d = a[i, k] - b[j, k]
        acc += d * d
    return acc


@njit
def insert(best_d, best_i, row, d, index):
    k = best_d.shape[1] - 1
    if d >= best_d[row, k]:
        return
    while k > 0 and best_d[row, k - 1] > d:
        best_d[row, k] = best_d[row, k - 1]
        best_i[row, k] = best_i[row, k - 1]
        k -= 1
    best_d[row, k] = d
    best_i[row, k] = index


@njit
def knn(data, queries, k):
    nq = queries.shape[0]
    best_d = np.full((nq, k), np.inf)
    best_i = np.full((nq, k), -1, np.int64)
    for q in range(nq):
        for j in range(data.shape[0]):
            insert(best_d, best_i, q, squared_distance(queries, q, data, j), j)
    for q in range(nq):
        for m in range(k):
            best_d[q, m] = np.sqrt(best_d[q, m])
    return best_i, best_d
