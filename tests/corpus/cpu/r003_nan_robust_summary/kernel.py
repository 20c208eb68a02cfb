"""Sensor summary with missing readings (NaN): nan-aware reductions beside the plain ones."""
import math

import numpy as np
from numba import njit


@njit
def robust_summary(readings):
    rows, cols = readings.shape
    missing = 0
    finite = 0
    for i in range(rows):
        for j in range(cols):
            v = readings[i, j]
            if np.isnan(v):
                missing += 1
            elif np.isfinite(v):
                finite += 1
    total = np.nansum(readings)
    avg = np.nanmean(readings)
    lo = np.nanmin(readings)
    hi = np.nanmax(readings)
    # the plain reductions propagate NaN; argmax finds the first NaN's flat index
    plain_max = np.max(readings)
    plain_min = readings.min()
    first_nan = np.argmax(readings)
    first_nan_min = readings.argmin()
    # a station (row) that reported nothing at all
    silent = -1
    for i in range(rows):
        if math.isnan(np.nanmax(readings[i])) and silent < 0:
            silent = i
    # rows without a NaN: their own mean and spread
    clean_rows = 0
    spread = 0.0
    for i in range(rows):
        row = readings[i]
        if not np.isnan(np.sum(row)):
            clean_rows += 1
            spread += row.max() - row.min()
    return (missing, finite, total, avg, lo, hi, math.isnan(plain_max), math.isnan(plain_min),
            first_nan, first_nan_min, silent, clean_rows, spread, np.any(readings), np.all(readings))
