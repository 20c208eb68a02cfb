"""Moments of integer counts: int32 and uint8 arrays summed in 64 bits, means in float64."""
import numpy as np
from numba import njit


@njit
def count_moments(counts, pixels):
    total = np.sum(counts)            # int32 -> int64
    mean = counts.mean()              # -> float64
    var = counts.var()
    prod_small = np.prod(counts[:5])  # int64 product
    brightest = np.max(pixels)        # uint8 stays uint8
    dimmest = pixels.min()
    pixel_sum = pixels.sum()          # uint8 -> uint64, no wrap at 255
    lit = np.count_nonzero(pixels)
    # a weighted centre of the counts, in a loop
    centre = 0.0
    for i in range(counts.shape[0]):
        centre += i * counts[i]
    centre /= total
    above = 0
    for i in range(counts.shape[0]):
        if counts[i] > mean:
            above += 1
    return total, mean, var, np.std(counts), prod_small, brightest, dimmest, pixel_sum, lit, centre, above, np.median(counts), np.median(pixels)
