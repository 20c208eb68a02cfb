"""Hot pixels in a detector frame, found as image-processing code finds them: a robust
threshold from each row's sorted values (np.sort of a 2-d frame sorts every row), the hot
pixels' coordinates from np.nonzero and np.argwhere on a mask, their flat indices from
np.flatnonzero, the rows' spreads with an in-place sort of each row copy, and the distinct
quantised levels with np.unique. The frame arrives Fortran-ordered."""
import numpy as np
from numba import njit


@njit
def hot_pixels(frame, k):
    rows, cols = frame.shape
    by_row = np.sort(frame)
    threshold = np.empty(rows, dtype=frame.dtype)
    for r in range(rows):
        median = by_row[r, cols // 2]
        spread = by_row[r, (3 * cols) // 4] - by_row[r, cols // 4]
        threshold[r] = median + k * spread

    mask = np.zeros((rows, cols), dtype=np.bool_)
    for r in range(rows):
        for c in range(cols):
            mask[r, c] = frame[r, c] > threshold[r]
    ys, xs = np.nonzero(mask)
    coords = np.argwhere(mask)
    flat = np.flatnonzero(mask)
    first_hot_row = ys[0] if ys.shape[0] > 0 else -1

    spreads = np.empty(rows, dtype=np.float64)
    for r in range(rows):
        row = frame[r].copy()
        row.sort(kind="mergesort")
        spreads[r] = row[cols - 1] - row[0]

    levels = np.empty(rows * cols, dtype=np.float64)
    for r in range(rows):
        for c in range(cols):
            levels[r * cols + c] = np.floor(frame[r, c] * 2.0) / 2.0
    distinct = np.unique(levels)
    col_order = np.argsort(frame[:, 0])
    return by_row, threshold, ys, xs, coords, flat, first_hot_row, spreads, distinct, col_order
