"""Slice assignment in kernels: boundary rows of a grid, a broadcast bias, scratch buffers.

A finite-difference step keeps its ghost cells by copying the rows next to them, a layer adds a
bias row to each row of its output, and per-thread scratch arrays are cleared with `buf[:] = 0`.
"""
import numpy as np
from numba import cuda

WIDTH = 8


@cuda.jit
def refresh_ghosts(u, bias, out, history):
    t = cuda.grid(1)
    if t == 0:
        # Ghost rows and columns copy their neighbours (a 2-d view on both sides).
        u[0, :] = u[1, :]
        u[u.shape[0] - 1, :] = u[u.shape[0] - 2, :]
        u[:, 0] = u[:, 1]
        u[1:3, 5:7] = -1.0
        # A row broadcast into every row; an int64 scalar converted to the array's type.
        out[:, :] = bias
        out[2] = 7
        out[3, 2:] = bias[:WIDTH - 2]
        # A shift in place: each value moves one slot later.
        history[1:] = history[:-1]
        history[0] = 0.5
    scratch = cuda.local.array(WIDTH, np.float64)
    scratch[:] = 0.0
    scratch[t % WIDTH] = 1.0
    total = 0.0
    for k in range(WIDTH):
        total += scratch[k]
    tile = cuda.shared.array((4, WIDTH), np.float32)
    if cuda.threadIdx.x == 0:
        tile[:, :] = 2.0
        tile[1, :] = 3.0
    cuda.syncthreads()
    if t < out.shape[1] and t > 0:
        out[5, t] = tile[1, t] + tile[0, t] + total


if __name__ == "__main__":
    u = np.arange(6 * WIDTH, dtype=np.float64).reshape(6, WIDTH)
    bias = np.linspace(0.0, 1.0, WIDTH).astype(np.float32)
    out = np.zeros((6, WIDTH), dtype=np.float32)
    history = np.arange(5, dtype=np.float64)
    refresh_ghosts[1, 16](u, bias, out, history)
    print(u, out, history)
