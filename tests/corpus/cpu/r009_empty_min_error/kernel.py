"""The smallest positive gap between sorted event times; no events at all is NumPy's error."""
import numpy as np
from numba import njit


@njit
def smallest_gap(times, start):
    window = times[start:]
    earliest = np.min(window)
    gap = np.inf
    for i in range(1, window.shape[0]):
        d = window[i] - window[i - 1]
        if 0 < d < gap:
            gap = d
    return earliest, gap
