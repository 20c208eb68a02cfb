"""k-nearest-neighbour classification of query points (brute force, small k).

Each thread keeps its K best distances in a local array initialised to
float("inf"), inserts candidates by shifting, then votes among the labels of
its neighbours.  Labels 3 and 7 are "rare" classes that win ties.
"""
import math

import numpy as np
from numba import cuda, float64, int32

K = 5
N_CLASSES = 8
RARE = (3, 7)


@cuda.jit
def knn_classify(train, labels, queries, predicted, nearest):
    q = cuda.grid(1)
    if q >= queries.shape[0]:
        return
    best_d = cuda.local.array(K, float64)
    best_i = cuda.local.array(K, int32)
    for k in range(K):
        best_d[k] = float("inf")
        best_i[k] = -1
    for t in range(train.shape[0]):
        d = 0.0
        for f in range(train.shape[1]):
            diff = train[t, f] - queries[q, f]
            d += diff * diff
        if d < best_d[K - 1]:
            k = K - 1
            while k > 0 and best_d[k - 1] > d:
                best_d[k] = best_d[k - 1]
                best_i[k] = best_i[k - 1]
                k -= 1
            best_d[k] = d
            best_i[k] = t
    votes = cuda.local.array(N_CLASSES, int32)
    for c in range(N_CLASSES):
        votes[c] = 0
    for k in range(K):
        votes[labels[best_i[k]]] += 1
    winner = 0
    for c in range(1, N_CLASSES):
        if votes[c] > votes[winner] or (votes[c] == votes[winner] and c in RARE):
            winner = c
    predicted[q] = winner
    nearest[q] = math.sqrt(best_d[0])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    tr = rng.normal(0, 1, (200, 3)); lab = rng.integers(0, 8, 200).astype(np.int32)
    qs = rng.normal(0, 1, (20, 3))
    pr = np.zeros(20, np.int32); nr = np.zeros(20)
    knn_classify[1, 32](tr, lab, qs, pr, nr)
    print(pr)
