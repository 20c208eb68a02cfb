"""A channel map with a bad entry: np.bincount of a negative channel number is Numba's
ValueError at the call's line, after the good channels were checked."""
import numpy as np
from numba import njit


@njit
def channel_occupancy(channel, offset):
    shifted = np.empty(channel.shape[0], dtype=np.int64)
    for i in range(channel.shape[0]):
        shifted[i] = channel[i] - offset
    hits = np.bincount(shifted)
    return hits.shape[0]
