"""Level conversions for audio meters: linear amplitude to dBFS with a floor.

Written as a CUDA ufunc with several loop signatures so that both float32
buffers from the sound card and float64 analysis buffers are accepted.
"""
import math

import numpy as np
from numba import vectorize

FLOOR_DB = -120.0
REF = 1.0
TINY = 10.0 ** (FLOOR_DB / 20.0)


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
           target='cuda')
def amplitude_to_db(x, gain):
    a = abs(x) * gain
    if a <= TINY:
        return FLOOR_DB
    return 20.0 * math.log10(a / REF)


@vectorize(['float64(float64)'], target='cuda')
def db_to_amplitude(db):
    return REF * 10.0 ** (db / 20.0)


if __name__ == "__main__":
    x = np.array([1.0, 0.5, 1e-9, 0.0, -0.25])
    print(amplitude_to_db(x, 2.0), db_to_amplitude(np.array([-6.0, 0.0])))
