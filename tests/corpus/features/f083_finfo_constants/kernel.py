"""Robust normalisation of angle/intensity samples.

The tolerances and limits are computed once at import, as most projects write
them: machine epsilons from np.finfo, integer limits from np.iinfo, and a few
derived constants. Kernels read them as frozen constants.
"""
import math

import numpy as np
from numba import cuda

EPS64 = np.finfo(np.float64).eps
EPS32 = np.finfo(np.float32).eps          # a float32: Numba freezes it as float32
BIG = np.finfo("double").max
TINY = np.float32(1e-6)
INT32_MAX = np.iinfo(np.int32).max
UINT8_MAX = np.iinfo(np.uint8).max
INT16_MIN = np.iinfo("int16").min
PI = np.arccos(-1)
SQRT2 = math.sqrt(2)
DEG2RAD = np.pi / 180
LIMITS = (EPS64, INT32_MAX, SQRT2)
F32_BITS = np.finfo(np.float32).bits
RESOLUTION = np.finfo(np.float32).resolution


@cuda.jit(device=True)
def safe_ratio(num, den):
    if abs(den) < EPS64:
        return num / EPS64
    return num / den


@cuda.jit
def normalise(angles_deg, values, out, counts, out32):
    i = cuda.grid(1)
    if i >= values.shape[0]:
        return
    theta = angles_deg[i] * DEG2RAD
    out[i, 0] = math.cos(theta) * SQRT2
    out[i, 1] = safe_ratio(values[i], values[i] - 1.0)
    # a float32 constant keeps float32 arithmetic
    v32 = np.float32(values[i])
    out32[i] = v32 + EPS32 * np.float32(4) + TINY
    out[i, 2] = v32
    out[i, 3] = min(values[i] * 1e300, BIG) / 1e300
    out[i, 4] = theta / PI + LIMITS[0] * 0
    scaled = values[i] * INT32_MAX
    if scaled > INT32_MAX:
        scaled = INT32_MAX
    out[i, 5] = scaled / INT32_MAX
    q = int(values[i] * 300)
    if q > UINT8_MAX:
        q = UINT8_MAX
    counts[i, 0] = q
    counts[i, 1] = INT16_MIN + LIMITS[1] % 1000
    counts[i, 2] = F32_BITS
    out[i, 6] = RESOLUTION * 1e6
