"""Gamma correction of a grayscale frame on every core.

The camera delivers float32 frames; archived frames are float64. One parallel ufunc with a
loop for each, chosen by the frame's type (a Python float gamma keeps float32 frames float32).
"""
import math

import numpy as np
from numba import vectorize

BLACK_LEVEL = 0.02


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='parallel')
def gamma_correct(pixel, gamma):
    level = pixel - BLACK_LEVEL
    if level <= 0.0:
        return 0.0
    return math.pow(level, 1.0 / gamma)


if __name__ == "__main__":
    frame = np.random.default_rng(1).random((480, 640)).astype(np.float32)
    print(gamma_correct(frame, 2.2).dtype)
