# Feature selection on a design matrix, as a small modelling script writes it: score each
# column by its variance, keep the best ones with X[:, keep], zero a fixed list of leaky columns
# in place (X[:, LEAKY] = 0.0), and read the same rows of every fold of a 3-d stack on the kept
# columns with two index arrays beside a slice.
import numpy as np
from numba import njit

N_KEEP = 4
LEAKY = np.array([0, -1])


@njit
def column_scores(X):
    n, m = X.shape
    scores = np.empty(m)
    for j in range(m):
        mean = 0.0
        for i in range(n):
            mean += X[i, j]
        mean /= n
        var = 0.0
        for i in range(n):
            var += (X[i, j] - mean) ** 2
        scores[j] = var / n
    return scores


@njit
def top_columns(scores, k):
    order = np.argsort(scores)
    keep = order[::-1][:k]
    return np.sort(keep)


@njit
def select_features(X, folds, fold_rows):
    scores = column_scores(X)
    keep = top_columns(scores, N_KEEP)
    selected = X[:, keep]
    first_rows = X[0, keep]
    cleaned = X.copy()
    cleaned[:, LEAKY] = 0.0
    cleaned[:, keep[:2]] *= 2.0
    # the same rows of every fold, on the kept columns: two index arrays beside a slice
    per_fold = folds[:, fold_rows, keep[:fold_rows.shape[0]]]
    folds[fold_rows[1:], :, keep[0]] = -1.0
    return keep, selected, first_rows, cleaned, per_fold, folds
