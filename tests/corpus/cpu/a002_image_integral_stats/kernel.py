"""Image statistics of an 8-bit grey image: row and column profiles (np.sum along an axis, with
a run-time axis and a negative one), the brightest column of each row (a.argmax(axis=1)), a
summed-area table built with np.cumsum along each axis, and box means read from it."""
import numpy as np
from numba import njit


@njit
def image_stats(image, box, profile_axis):
    rows, cols = image.shape
    column_profile = np.sum(image, axis=0)          # uint8 adds up in uint64
    row_profile = image.sum(-1)
    chosen = image.sum(axis=profile_axis)           # the axis known only at run time
    darkest_rows = np.argmin(image, axis=1)
    brightest = image.argmax(axis=1)
    lead_row = np.argmax(image, 0)
    # summed-area table: running sums down the columns, then along the rows
    down = np.cumsum(image, axis=0)
    table = np.cumsum(down, axis=1)
    best_mean = -1.0
    best_at = (0, 0)
    for i in range(0, rows - box + 1):
        for j in range(0, cols - box + 1):
            total = table[i + box - 1, j + box - 1]
            if i > 0:
                total -= table[i - 1, j + box - 1]
            if j > 0:
                total -= table[i + box - 1, j - 1]
            if i > 0 and j > 0:
                total += table[i - 1, j - 1]
            mean = total / (box * box)
            if mean > best_mean:
                best_mean = mean
                best_at = (i, j)
    # the profiles in float64 from a float view of the rows
    as_float = np.empty((rows, cols))
    for i in range(rows):
        for j in range(cols):
            as_float[i, j] = image[i, j] / 255.0
    shade = np.sum(as_float, axis=1, dtype=np.float32)
    steepest = 0
    for j in range(cols):
        if column_profile[j] > column_profile[steepest]:
            steepest = j
    return (column_profile, row_profile, chosen, darkest_rows, brightest, lead_row, table,
            best_mean, best_at[0], best_at[1], shade, steepest, np.sum(as_float.T, 1))
