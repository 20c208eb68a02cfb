"""A running median filter over each row of a 2-D signal, with despiking by the median."""
import numpy as np
from numba import njit


@njit
def median_despike(signal, out, half_width, k):
    rows, n = signal.shape
    replaced = 0
    for r in range(rows):
        row = signal[r]
        med_row = np.median(row)
        mad = 0.0
        for i in range(n):
            mad += abs(row[i] - med_row)
        mad /= n
        for i in range(n):
            lo = max(0, i - half_width)
            hi = min(n, i + half_width + 1)
            local = np.median(row[lo:hi])
            if abs(row[i] - local) > k * mad:
                out[r, i] = local
                replaced += 1
            else:
                out[r, i] = row[i]
    return replaced, np.median(signal), np.median(signal[:, 1]), np.median(out[:, ::3])
