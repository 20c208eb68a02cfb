"""The busiest hour of a day's counts; an empty day is Numba's argmax error."""
import numpy as np
from numba import njit


@njit
def busiest(counts, first, last):
    day = counts[first:last]
    total = day.sum()
    mean = np.mean(day)          # NaN for an empty day, no error
    peak = day.argmax()
    return total, mean, peak
