"""Dense single-precision matrix products, tiled through shared memory.

A small linear-algebra helper module: a naive kernel kept for checking, the
tiled kernel that is used, and a host wrapper that pads the launch to whole
tiles.  Shapes need not be multiples of the tile.
"""
import math

import numpy as np
from numba import cuda, float32

TPB = 16                     # threads per block along each axis
TILE_ELEMS = TPB * TPB


@cuda.jit
def matmul_naive(A, B, C):
    row, col = cuda.grid(2)
    if row < C.shape[0] and col < C.shape[1]:
        acc = float32(0.0)
        for k in range(A.shape[1]):
            acc += A[row, k] * B[k, col]
        C[row, col] = acc


@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)

    x, y = cuda.grid(2)          # x: column of C, y: row of C
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    n_tiles = (A.shape[1] + TPB - 1) // TPB

    acc = float32(0.0)
    for t in range(n_tiles):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        a_col = t * TPB + tx
        b_row = t * TPB + ty
        if y < A.shape[0] and a_col < A.shape[1]:
            sA[ty, tx] = A[y, a_col]
        if x < B.shape[1] and b_row < B.shape[0]:
            sB[ty, tx] = B[b_row, x]
        cuda.syncthreads()

        for j in range(TPB):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()

    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = acc


def launch_dims(shape):
    blocks_x = math.ceil(shape[1] / TPB)
    blocks_y = math.ceil(shape[0] / TPB)
    return (blocks_x, blocks_y), (TPB, TPB)


def gpu_matmul(a, b):
    c = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    grid, block = launch_dims(c.shape)
    matmul_tiled[grid, block](cuda.to_device(a), cuda.to_device(b), c)
    return c


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    a = rng.standard_normal((40, 36)).astype(np.float32)
    b = rng.standard_normal((36, 28)).astype(np.float32)
    print(np.abs(gpu_matmul(a, b) - a @ b).max())
