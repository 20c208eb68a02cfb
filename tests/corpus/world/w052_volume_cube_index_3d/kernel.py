"""First pass of marching cubes on a CT volume: classify every cell.

A cell is the cube between eight neighbouring voxels; its index has bit k set
when corner k is above the iso level.  Cells that the surface crosses (index
not 0 or 255) are counted per z-slice, and the central-difference gradient
magnitude at each voxel is kept for shading.  3-D grid of 3-D blocks.
"""
import math

import numpy as np
from numba import cuda, uint8

# corner offsets (dz, dy, dx) in the usual marching-cubes order
CORNER_DZ = (0, 0, 0, 0, 1, 1, 1, 1)
CORNER_DY = (0, 0, 1, 1, 0, 0, 1, 1)
CORNER_DX = (0, 1, 1, 0, 0, 1, 1, 0)


@cuda.jit
def classify_cells(vol, iso, cube_index, active_per_slice, grad_mag):
    z, y, x = cuda.grid(3)
    nz, ny, nx = vol.shape
    if z >= nz or y >= ny or x >= nx:
        return

    # gradient at the voxel (one-sided at the border)
    zm = max(z - 1, 0)
    zp = min(z + 1, nz - 1)
    ym = max(y - 1, 0)
    yp = min(y + 1, ny - 1)
    xm = max(x - 1, 0)
    xp = min(x + 1, nx - 1)
    gz = (vol[zp, y, x] - vol[zm, y, x]) / (zp - zm)
    gy = (vol[z, yp, x] - vol[z, ym, x]) / (yp - ym)
    gx = (vol[z, y, xp] - vol[z, y, xm]) / (xp - xm)
    grad_mag[z, y, x] = math.sqrt(gx * gx + gy * gy + gz * gz)

    if z >= nz - 1 or y >= ny - 1 or x >= nx - 1:
        return
    idx = 0
    for k in range(8):
        if vol[z + CORNER_DZ[k], y + CORNER_DY[k], x + CORNER_DX[k]] > iso:
            idx |= 1 << k
    cube_index[z, y, x] = uint8(idx)
    if idx != 0 and idx != 255:
        cuda.atomic.add(active_per_slice, z, 1)


if __name__ == "__main__":
    g = np.indices((20, 20, 20)).astype(np.float32) - 9.5
    sphere = 10.0 - np.sqrt((g ** 2).sum(axis=0))
    ci = np.zeros((19, 19, 19), np.uint8)
    act = np.zeros(19, np.int32)
    gm = np.zeros_like(sphere)
    classify_cells[(3, 3, 3), (8, 8, 8)](sphere, 3.0, ci, act, gm)
    print(act)
