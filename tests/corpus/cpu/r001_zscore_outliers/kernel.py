"""Outlier detection: z-scores against the mean and standard deviation, counted and located."""
import math

import numpy as np
from numba import njit


@njit
def zscore_outliers(x, threshold):
    n = x.shape[0]
    mu = np.mean(x)
    sigma = x.std()
    if sigma == 0.0:
        return 0, -1, 0.0, mu
    flagged = 0
    worst = -1
    worst_z = 0.0
    for i in range(n):
        z = (x[i] - mu) / sigma
        if abs(z) > threshold:
            flagged += 1
            if abs(z) > worst_z:
                worst_z = abs(z)
                worst = i
    # the spread without the outliers, by a second pass
    kept = 0
    total = 0.0
    for i in range(n):
        if abs((x[i] - mu) / sigma) <= threshold:
            total += x[i]
            kept += 1
    clean_mean = total / kept if kept > 0 else math.nan
    return flagged, worst, worst_z, clean_mean - mu + np.var(x) * 0.0 + x.sum() / n - mu
