"""Binning samples into a fixed histogram, with an assert that no sample was lost."""
import numpy as np
from numba import njit

N_BINS = 8


@njit
def bin_counts(samples, low, high):
    counts = np.zeros(N_BINS, dtype=np.int64)
    width = (high - low) / N_BINS
    for x in samples:
        k = int((x - low) // width)
        if 0 <= k < N_BINS:
            counts[k] += 1
    return counts


@njit
def histogram_checked(samples, low, high):
    counts = bin_counts(samples, low, high)
    kept = counts.sum()
    n = samples.shape[0]
    assert kept == n, f"lost {n - kept} of {n} samples outside [{int(low)}, {int(high)})"
    return counts
