# A quantisation report as a data-cleaning script writes it: prices rounded to cents, readings
# to one decimal and to tens (negative decimals), integer counts to hundreds, a complex
# calibration rounded part by part, ties that round half to even, numbers rounded one at a
# time, and a rounded copy written into a preallocated float32 array.
import numpy as np
from numba import njit

CENTS = 2
TENS = -1


@njit
def quantise(prices, readings, counts):
    cents = np.round(prices, CENTS)
    tenths = np.around(readings, 1)
    tens = np.round(readings, TENS)
    hundreds = np.round(counts, -2)
    whole = np.round(readings)
    error = np.abs(prices - cents).max()
    return cents, tenths, tens, hundreds, whole, error


@njit
def report(prices, readings, counts, digits):
    cents, tenths, tens, hundreds, whole, error = quantise(prices, readings, counts)
    ties = np.array([0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 2.675])
    even = np.round(ties)
    even_2 = np.round(ties, 2)
    calibration = np.round(readings[:3] * (1.0 + 0.5j), 1)
    scalar_total = 0.0
    for k in range(prices.shape[0]):
        scalar_total += np.round(prices[k], digits)
    small = np.empty(readings.shape[0], dtype=np.float32)
    np.round(readings, 3, small)
    single = np.round(np.float32(2.25), 1)
    count = np.round(counts[0], -1)
    return cents, tenths, tens, hundreds, whole, error, even, even_2, calibration, scalar_total, small, single, count
