"""D8 flow directions and slopes on a DEM (hydrology preprocessing).

For each cell, the steepest downhill neighbour among the eight, using ESRI's
direction codes (1 = east, then clockwise: 2 SE, 4 S, 8 SW, 16 W, 32 NW,
64 N, 128 NE).  Diagonal distances are sqrt(2) cell sizes.  Pits and flats
get code 0; cells at the edge drain off the map (code -1).
"""
import math

import numpy as np
from numba import cuda, int32

DROW = (0, 1, 1, 1, 0, -1, -1, -1)
DCOL = (1, 1, 0, -1, -1, -1, 0, 1)
CODES = (1, 2, 4, 8, 16, 32, 64, 128)
SQRT2 = math.sqrt(2.0)
NODATA = -9999.0


@cuda.jit(device=True)
def neighbour_distance(k, cellsize):
    return cellsize * (SQRT2 if k % 2 == 1 else 1.0)


@cuda.jit
def d8(dem, cellsize, direction, max_slope):
    r, c = cuda.grid(2)
    rows, cols = dem.shape
    if r >= rows or c >= cols:
        return
    z = dem[r, c]
    if z == NODATA:
        direction[r, c] = 0
        max_slope[r, c] = NODATA
        return
    if r == 0 or c == 0 or r == rows - 1 or c == cols - 1:
        direction[r, c] = -1
        max_slope[r, c] = 0.0
        return
    best = 0.0
    code = 0
    for k in range(8):
        zn = dem[r + DROW[k], c + DCOL[k]]
        if zn == NODATA:
            continue
        s = (z - zn) / neighbour_distance(k, cellsize)
        if s > best:
            best = s
            code = CODES[k]
    direction[r, c] = code
    max_slope[r, c] = best


if __name__ == "__main__":
    yy, xx = np.mgrid[0:30, 0:30]
    dem = (np.hypot(yy - 15, xx - 15) * 2.0).astype(np.float64)
    dirs = np.zeros(dem.shape, np.int32)
    slope = np.zeros(dem.shape)
    d8[(2, 2), (16, 16)](dem, 30.0, dirs, slope)
    print(np.unique(dirs))
