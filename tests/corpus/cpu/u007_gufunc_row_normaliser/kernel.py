"""Per-row standardisation of a sensor panel with generalized ufuncs, driven by one @njit function.

The gufuncs work on one row at a time; the driver allocates their outputs, calls them on the
whole panel and summarises what they wrote. Rows whose spread is below a floor are only
centred, not scaled.
"""
import numpy as np
from numba import njit, guvectorize, float64, int64

SPREAD_FLOOR = 1e-9


@guvectorize([(float64[:], float64, float64[:])], '(n),()->(n)', nopython=True)
def standardise_row(row, floor, out):
    n = row.shape[0]
    mean = 0.0
    for i in range(n):
        mean += row[i]
    mean /= n
    var = 0.0
    for i in range(n):
        var += (row[i] - mean) ** 2
    std = np.sqrt(var / n)
    scale = std if std > floor else 1.0
    for i in range(n):
        out[i] = (row[i] - mean) / scale


@guvectorize([(float64[:], float64[:], int64[:])], '(n)->(),()', nopython=True)
def row_extent(row, span, argmax):
    lo = row[0]
    hi = row[0]
    best = 0
    for i in range(1, row.shape[0]):
        if row[i] < lo:
            lo = row[i]
        if row[i] > hi:
            hi = row[i]
            best = i
    span[0] = hi - lo
    argmax[0] = best


@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()', nopython=True)
def weighted_score(row, weights, out):
    acc = 0.0
    for i in range(row.shape[0]):
        acc += row[i] * weights[i]
    out[0] = acc


@njit
def normalise_panel(panel, weights):
    rows = panel.shape[0]
    z = np.empty_like(panel)
    standardise_row(panel, SPREAD_FLOOR, z)
    span = np.empty(rows)
    peak_at = np.empty(rows, dtype=np.int64)
    row_extent(z, span, peak_at)
    scores = np.zeros(rows)
    weighted_score(z, weights, scores)
    # one row on its own: a 1-d input and a one-element output
    first = np.empty(1)
    weighted_score(z[0], weights, first)
    flat = np.zeros_like(panel)
    flat[:, 0] = 1.0
    standardise_row(flat, 0.5, flat)
    return z, span, peak_at, scores, first[0], flat


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    print(normalise_panel(rng.normal(size=(4, 6)), np.linspace(-1.0, 1.0, 6))[3])
