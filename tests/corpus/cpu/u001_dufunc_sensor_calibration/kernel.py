"""Calibration of a sensor log: ufuncs without signatures, built for whatever the log holds.

The readings arrive as float32 from the ADC and the event counters as int64; one ufunc
serves both (Numba compiles a loop per input types on first use), and the report also
applies it to single numbers.
"""
import numpy as np
from numba import njit, vectorize

OFFSET = 0.25
COUNT_LIMIT = 900


@vectorize
def calibrate(raw, gain):
    return raw * gain + OFFSET


@vectorize(nopython=True)
def saturate(count, limit):
    # counters wrap at the limit on this hardware; keep them in range
    if count > limit:
        return limit
    if count < 0:
        return 0
    return count


@njit
def spread(values):
    return values.max() - values.min()


@njit
def calibration_report(readings, counts, gain):
    volts = calibrate(readings, np.float32(gain))       # float32 array, float32 scalar
    kept = saturate(counts, COUNT_LIMIT)                # int64 array, int scalar: int64
    scaled = calibrate(kept, 0.5)                       # int64 array, float scalar
    single = calibrate(3, 2.0)                          # numbers: a number
    clipped = saturate(1200, COUNT_LIMIT)
    return volts, kept, scaled, single, clipped, spread(volts)


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    print(calibration_report(rng.random(8).astype(np.float32), rng.integers(-50, 1500, 8), 1.5))
