"""All-pairs shortest paths (Floyd-Warshall) with path reconstruction.

The host loops over the pivot k and launches one 2-D kernel per pivot; the
pivot row and column are read through shared memory.  Unreachable pairs
hold inf; `nxt` keeps the next hop for path reconstruction.  The kernel
also has a variant that runs a range of pivots in one launch for graphs
small enough to sit in a single block.
"""
import math

import numpy as np
from numba import cuda, float64, int32

TILE = 16
UNREACHABLE = math.inf


@cuda.jit
def relax_pivot(dist, nxt, k):
    col_k = cuda.shared.array(TILE, float64)
    row_k = cuda.shared.array(TILE, float64)
    i, j = cuda.grid(2)
    ti = cuda.threadIdx.x
    tj = cuda.threadIdx.y
    n = dist.shape[0]
    if tj == 0 and i < n:
        col_k[ti] = dist[i, k]
    if ti == 0 and j < n:
        row_k[tj] = dist[k, j]
    cuda.syncthreads()
    if i < n and j < n:
        through = col_k[ti] + row_k[tj]
        if through < dist[i, j]:
            dist[i, j] = through
            nxt[i, j] = nxt[i, k]


@cuda.jit
def all_pivots_one_block(dist, nxt, k_start, k_stop):
    n = dist.shape[0]
    for k in range(k_start, k_stop):
        for i in range(cuda.threadIdx.x, n, cuda.blockDim.x):
            for j in range(cuda.threadIdx.y, n, cuda.blockDim.y):
                through = dist[i, k] + dist[k, j]
                if through < dist[i, j]:
                    dist[i, j] = through
                    nxt[i, j] = nxt[i, k]
        cuda.syncthreads()


def shortest_paths(weights):
    n = weights.shape[0]
    dist = weights.copy()
    nxt = np.where(np.isfinite(weights), np.arange(n)[None, :], -1).astype(np.int32)
    grid = ((n + TILE - 1) // TILE, (n + TILE - 1) // TILE)
    for k in range(n):
        relax_pivot[grid, (TILE, TILE)](dist, nxt, k)
    return dist, nxt


if __name__ == "__main__":
    w = np.full((5, 5), np.inf)
    np.fill_diagonal(w, 0.0)
    for a, b, c in [(0, 1, 3.0), (1, 2, 1.0), (0, 2, 7.0), (2, 3, 2.0), (3, 4, 1.0)]:
        w[a, b] = c
    d, nx = shortest_paths(w)
    print(d[0], nx[0])
