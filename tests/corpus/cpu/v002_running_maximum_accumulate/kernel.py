"""High-water marks of river gauges.

Each column is one gauge, each row one hourly reading. The high-water mark so far is the
running maximum down the columns: NumPy's accumulate of a two-argument ufunc. A reading the
logger failed to take is NaN and must not reset the mark, so the ufunc keeps the mark when
the reading is missing.
"""
import math

from numba import vectorize, float32, float64


@vectorize([float32(float32, float32), float64(float64, float64)])
def high_water(mark, reading):
    if math.isnan(reading):
        return mark
    if math.isnan(mark) or reading > mark:
        return reading
    return mark


if __name__ == "__main__":
    import numpy as np
    levels = np.random.default_rng(2).gamma(2.0, 1.5, size=(12, 3))
    levels[4, 1] = np.nan
    print(high_water.accumulate(levels))
