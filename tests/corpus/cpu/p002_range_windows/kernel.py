"""Strided window statistics where the window starts live in a range object, as a feature
extractor for sensor data writes them; ranges are passed to zip and enumerate and measured."""
import numpy as np
from numba import njit


@njit
def window_mean(x, start, width):
    s = 0.0
    for j in range(start, start + width):
        s += x[j]
    return s / width


@njit
def strided_features(x, width, hop):
    starts = range(0, x.shape[0] - width + 1, hop)
    count = len(starts)
    means = np.zeros(count)
    for k, s in enumerate(starts):
        means[k] = window_mean(x, s, width)
    # differences between consecutive windows: zip a range with a shifted one
    rises = 0
    biggest = 0.0
    for a, b in zip(starts, range(hop, x.shape[0] - width + 1, hop)):
        d = window_mean(x, b, width) - window_mean(x, a, width)
        if d > 0:
            rises += 1
        if abs(d) > biggest:
            biggest = abs(d)
    # a descending range object, enumerated from 1
    backwards = range(count - 1, -1, -2)
    weighted = 0.0
    for rank, k in enumerate(backwards, 1):
        weighted += rank * means[k]
    last = -1
    for k in backwards:
        last = k
    return count, rises, biggest, weighted, last, len(backwards), means
