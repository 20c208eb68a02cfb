"""Resampling a list of readings by a stride the caller gives: a stride of 0 is a ValueError."""
import numpy as np
from numba import njit


@njit
def decimate(readings, stride):
    out = list(readings)
    picked = out[::stride]
    out[::stride] = [r * 0.5 for r in picked]
    return out


@njit
def resample(values, stride):
    readings = [v for v in values]
    halved = decimate(readings, stride)
    return len(halved), halved[0]
