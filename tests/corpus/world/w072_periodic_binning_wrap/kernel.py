"""Binning particles of a periodic box onto a mesh (particle-in-cell style).

Positions drift outside the box between re-wraps, so each thread wraps its
particle back with Python's float modulo (never negative), finds its cell by
floor division, and also reports the nearest mesh node by round() (ties to
even, as Python and Numba round).  Cell occupancy is counted atomically.
"""
import math

import numpy as np
from numba import cuda

BOX = 8.0
N_CELLS = 16
CELL = BOX / N_CELLS


@cuda.jit
def bin_particles(pos, wrapped, cell_of, node_of, occupancy):
    i = cuda.grid(1)
    if i >= pos.shape[0]:
        return
    x = pos[i, 0] % BOX
    y = pos[i, 1] % BOX
    wrapped[i, 0] = x
    wrapped[i, 1] = y
    # a tiny negative x wraps to BOX itself (-1e-17 % 8.0 == 8.0): clamp the cell
    cx = min(int(x // CELL), N_CELLS - 1)
    cy = min(int(y // CELL), N_CELLS - 1)
    cell_of[i] = cy * N_CELLS + cx
    node_of[i, 0] = round(x / CELL) % N_CELLS
    node_of[i, 1] = round(y / CELL) % N_CELLS
    cuda.atomic.add(occupancy, (cy, cx), 1)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    p = rng.uniform(-12.0, 20.0, (500, 2))
    w = np.zeros_like(p)
    c = np.zeros(500, np.int64)
    nd = np.zeros((500, 2), np.int64)
    occ = np.zeros((N_CELLS, N_CELLS), np.int32)
    bin_particles[4, 128](p, w, c, nd, occ)
    print(occ.sum(), math.isclose(w.max(), BOX, abs_tol=1.0))
