"""Terrain analysis on a digital elevation model: slope, aspect, hillshade.

Follows the usual GIS definitions (Horn's 3x3 finite differences).  The cell
sizes arrive as one-element arrays, as a raster library passes them to keep
the kernel signature stable; edge cells are NaN.
"""
from __future__ import annotations

import math
from math import atan, atan2, sqrt

try:
    import cupy
except ImportError:
    class cupy(object):
        ndarray = False

import numpy as np
from numba import cuda

AZIMUTH = 315.0
ALTITUDE = 45.0
ZENITH_RAD = math.radians(90.0 - ALTITUDE)
AZIMUTH_RAD = math.radians(360.0 - AZIMUTH + 90.0)
DEG = 57.29578


@cuda.jit(device=True)
def _horn(arr, cellsize_x, cellsize_y):
    a = arr[0, 0]
    b = arr[0, 1]
    c = arr[0, 2]
    d = arr[1, 0]
    f = arr[1, 2]
    g = arr[2, 0]
    h = arr[2, 1]
    i = arr[2, 2]
    dz_dx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * cellsize_x[0])
    dz_dy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * cellsize_y[0])
    return dz_dx, dz_dy


@cuda.jit(device=True)
def _aspect(dz_dx, dz_dy):
    if dz_dx == 0 and dz_dy == 0:
        return -1.0
    aspect = atan2(dz_dy, -dz_dx)
    if aspect < 0:
        aspect = 2 * math.pi + aspect
    return aspect


@cuda.jit
def _run_gpu(arr, cellsize_x_arr, cellsize_y_arr, slope, aspect, shade):
    i, j = cuda.grid(2)
    di = 1
    dj = 1
    if i >= slope.shape[0] or j >= slope.shape[1]:
        return
    if (i - di >= 0 and i + di < slope.shape[0] and
            j - dj >= 0 and j + dj < slope.shape[1]):
        dz_dx, dz_dy = _horn(arr[i - di:i + di + 1, j - dj:j + dj + 1],
                             cellsize_x_arr, cellsize_y_arr)
        p = sqrt(dz_dx * dz_dx + dz_dy * dz_dy)
        slope_rad = atan(p)
        slope[i, j] = slope_rad * DEG
        asp = _aspect(dz_dx, dz_dy)
        aspect[i, j] = asp * DEG if asp >= 0 else -1.0
        value = (math.cos(ZENITH_RAD) * math.cos(slope_rad) +
                 math.sin(ZENITH_RAD) * math.sin(slope_rad) *
                 math.cos(AZIMUTH_RAD - asp))
        shade[i, j] = max(0.0, value)
    else:
        slope[i, j] = np.nan
        aspect[i, j] = np.nan
        shade[i, j] = np.nan


def terrain(dem, cellsize=(30.0, 30.0)):
    if isinstance(dem, cupy.ndarray):
        raise TypeError("pass host arrays")
    cx = np.array([float(cellsize[0])], dtype='f4')
    cy = np.array([float(cellsize[1])], dtype='f4')
    out = [np.empty(dem.shape, dtype='f8') for _ in range(3)]
    blocks = ((dem.shape[0] + 15) // 16, (dem.shape[1] + 15) // 16)
    _run_gpu[blocks, (16, 16)](dem, cx, cy, *out)
    return out


if __name__ == "__main__":
    y, x = np.mgrid[0:50, 0:60].astype('f8')
    dem = 100 * np.exp(-((x - 30) ** 2 + (y - 25) ** 2) / 300.0)
    s, a, h = terrain(dem)
    print(np.nanmax(s), np.nanmean(h))
