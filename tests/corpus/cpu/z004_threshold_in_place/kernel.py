"""An adaptive event detector whose threshold is handed in as a 0-d array (as np.asarray(0.5)
makes one) and adapted in place, so the caller sees the level it ended at."""
import numpy as np
from numba import njit

ADAPT = 0.05


@njit
def adapt(threshold, level):
    threshold[()] = (1.0 - ADAPT) * threshold[()] + ADAPT * level


@njit
def detect(samples, threshold):
    hits = np.zeros(samples.shape[0], dtype=np.int64)
    count = 0
    for i in range(samples.shape[0]):
        if samples[i] > threshold:
            hits[count] = i
            count += 1
            adapt(threshold, samples[i])
    margin = samples - threshold  # broadcast: the 0-d array against every sample
    return hits[:count], margin, threshold * 2, threshold
