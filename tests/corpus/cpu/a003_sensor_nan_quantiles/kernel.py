"""Quality report of a sensor log with dropouts: readings below a floor are lost (NaN); the
report uses NaN-skipping statistics (np.nanmedian, np.nanstd with ddof=1, np.nanvar,
np.nanpercentile with an array of q, np.nanquantile, np.nanprod, np.nancumsum) and compares
them with the plain ones where nothing was lost."""
import numpy as np
from numba import njit


@njit
def sensor_report(log, floor):
    n = log.shape[0]
    readings = np.copy(log)
    lost = 0
    for i in range(n):
        if readings[i] < floor:
            readings[i] = np.nan
            lost += 1
    centre = np.nanmedian(readings)
    spread = np.nanstd(readings, ddof=1)
    population = np.nanvar(readings)
    levels = np.arange(10.0, 100.0, 40.0)   # 10, 50, 90
    bands = np.nanpercentile(readings, levels)
    upper = np.nanquantile(readings, 0.75)
    # robust scale: the median absolute deviation
    deviations = np.empty(n)
    for i in range(n):
        deviations[i] = abs(readings[i] - centre)
    mad = np.nanmedian(deviations)
    flagged = 0
    for i in range(n):
        if not np.isnan(readings[i]) and deviations[i] > 3.0 * mad:
            flagged += 1
    # growth factors of the kept readings, and the running total with gaps held flat
    factors = np.empty(n)
    for i in range(n):
        factors[i] = 1.0 + readings[i] / 100.0
    compound = np.nanprod(factors)
    running = np.nancumsum(readings)
    held = np.nancumprod(factors)
    # the clean head of the log, before the first dropout, with the plain statistics
    head = 0
    while head < n and not np.isnan(readings[head]):
        head += 1
    clean = log[:head]
    plain = (np.percentile(clean, 50), np.quantile(clean, 0.25), np.median(clean)) if head > 1 else (0.0, 0.0, 0.0)
    return (lost, centre, spread, population, bands, upper, mad, flagged, compound, running, held,
            plain[0], plain[1], plain[2], np.percentile(readings, 50.0))
