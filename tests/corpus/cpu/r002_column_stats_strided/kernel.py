"""Per-column statistics of a table, each column a strided view (a[:, j])."""
import numpy as np
from numba import njit


@njit
def column_stats(table):
    rows, cols = table.shape
    best_col = 0
    best_range = -1.0
    spread_total = 0.0
    checksum = 0.0
    for j in range(cols):
        col = table[:, j]
        lo = np.min(col)
        hi = col.max()
        m = col.mean()
        s = np.std(col)
        if hi - lo > best_range:
            best_range = hi - lo
            best_col = j
        spread_total += s / (abs(m) + 1.0)
        checksum += np.sum(col) * (j + 1)
    # every other row of the transposed view, a view that is neither C nor F
    sub = table.T[:, ::2]
    return best_col, best_range, spread_total, checksum, np.sum(sub), sub.prod() * 0.0 + np.amax(sub) - np.amin(sub), np.mean(table[1::3, 1:])
