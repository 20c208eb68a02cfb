"""Deposit particle weights onto a coarse mesh and a voxel grid, keeping an audit trail.

The coarse mesh is every other column of the fine one and the voxel grid every other row of
its parent, so both are strided (layout A) views made in the kernel. Each thread owns one
coarse cell and logs the value every atomic hands back (the cell's content before the
update), which makes the log independent of thread order.
"""
import math

import numpy as np
from numba import cuda

NAN = math.nan
MASKS = (0x0F0F, 0x3C3C, 0x00FF)


@cuda.jit(device=True)
def cell_of(i, columns):
    return i // columns, i % columns


@cuda.jit(device=True)
def deposit_weight(mesh, cell, w, log, i):
    log[i, 0] = cuda.atomic.add(mesh, cell, w)
    log[i, 1] = cuda.atomic.sub(mesh, cell, 0.25 * w)
    log[i, 2] = cuda.atomic.max(mesh, cell, w * w)
    log[i, 3] = cuda.atomic.min(mesh, cell, -w)


@cuda.jit
def deposit(fine, voxels_parent, counters, flags, weights, log, counts_log, flags_log):
    i = cuda.grid(1)
    mesh = fine[:, ::2]
    rows, columns = mesh.shape
    if i >= rows * columns or i >= weights.shape[0]:
        return
    r, c = cell_of(i, columns)
    w = weights[i]
    deposit_weight(mesh, (r, c), w, log, i)

    voxels = voxels_parent[::2, :, :]
    k = i % voxels.shape[2]
    # NaN-aware extremes: the first update sees an empty (NaN) voxel, which nanmax replaces.
    voxels[r, c, k] = NAN
    log[i, 4] = cuda.atomic.nanmax(voxels, (r, c, k), w)
    log[i, 5] = cuda.atomic.nanmin(voxels, (r, c, k), NAN if i % 3 == 0 else -w)
    log[i, 6] = cuda.atomic.add(voxels, (r - rows, c, k), 1.0)  # negative index: wraps around
    log[i, 7] = voxels[r, c, k]

    slots = counters[:, 1::2]
    bound = np.uint32(i % 4 + 1)
    counts_log[i, 0] = cuda.atomic.inc(slots, (r, c), bound)
    counts_log[i, 1] = cuda.atomic.dec(slots, (r, c), bound)
    counts_log[i, 2] = cuda.atomic.exch(slots, (r, c), np.uint32(i * 7))
    counts_log[i, 3] = cuda.atomic.cas(slots, (r, c), np.uint32(i * 7), np.uint32(i + 100))
    counts_log[i, 4] = cuda.atomic.cas(slots, (r, c), np.uint32(5), np.uint32(0))  # fails: holds i + 100
    counts_log[i, 5] = slots[r, c]

    for b in range(3):
        flags_log[i, b, 0] = cuda.atomic.and_(flags, (r, c, b), MASKS[b])
        flags_log[i, b, 1] = cuda.atomic.or_(flags, (r, c, b), i << b)
        flags_log[i, b, 2] = cuda.atomic.xor(flags, (r, c, b), MASKS[2 - b])


def run_deposit(weights, rows=6, columns=8):
    fine = np.zeros((rows, 2 * columns))
    voxels_parent = np.zeros((2 * rows, columns, 2))
    counters = np.zeros((rows, 2 * columns), np.uint32)
    flags = np.full((rows, columns, 3), 0x7777, np.int64)
    n = weights.shape[0]
    log = np.zeros((n, 8))
    counts_log = np.zeros((n, 6), np.uint32)
    flags_log = np.zeros((n, 3, 3), np.int64)
    deposit[math.ceil(n / 32), 32](fine, voxels_parent, counters, flags, weights, log, counts_log, flags_log)
    return fine, log


if __name__ == "__main__":
    print(run_deposit(np.linspace(0.5, 2.0, 48))[0])
