"""A half-precision sensor buffer (as a device streams it) summarised on the host through a
list of per-window means. Numba's CPU target has no float16: the call fails to compile."""
import numpy as np
from numba import njit

WINDOW = 16


@njit
def window_means(buffer):
    means = []
    for start in range(0, buffer.shape[0] - WINDOW + 1, WINDOW):
        total = np.float16(0)
        for k in range(start, start + WINDOW):
            total += buffer[k]
        means.append(total / WINDOW)
    return means


@njit
def summarise(buffer):
    means = window_means(buffer)
    low = min(means)
    high = max(means)
    return low, high, len(means)
