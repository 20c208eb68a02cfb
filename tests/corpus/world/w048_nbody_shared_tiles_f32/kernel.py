"""All-pairs gravitational accelerations with shared-memory tiles (float32).

The GPU Gems formulation: bodies are loaded tile by tile into shared memory
as (x, y, z, m) rows, and each thread accumulates the pull of the tile on its
body.  Softening avoids the singularity of close encounters.
"""
import math

import numpy as np
from numba import cuda, float32

TILE = 64
SOFTENING = np.float32(0.01)
G = 1.0


@cuda.jit(device=True, inline=True)
def body_body(xi, yi, zi, xj, yj, zj, mj, acc):
    dx = xj - xi
    dy = yj - yi
    dz = zj - zi
    dist2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING
    inv = float32(1.0) / math.sqrt(dist2)
    s = mj * inv * inv * inv
    acc[0] += dx * s
    acc[1] += dy * s
    acc[2] += dz * s


@cuda.jit
def accelerations(bodies, acc_out):
    tile = cuda.shared.array((TILE, 4), dtype=float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    n = bodies.shape[0]
    acc = cuda.local.array(3, float32)
    acc[0] = acc[1] = acc[2] = float32(0.0)
    if i < n:
        xi = bodies[i, 0]
        yi = bodies[i, 1]
        zi = bodies[i, 2]
    else:
        xi = yi = zi = float32(0.0)

    for start in range(0, n, TILE):
        j = start + t
        if j < n:
            for c in range(4):
                tile[t, c] = bodies[j, c]
        else:
            for c in range(4):
                tile[t, c] = float32(0.0)        # massless padding
        cuda.syncthreads()
        for k in range(TILE):
            body_body(xi, yi, zi, tile[k, 0], tile[k, 1], tile[k, 2], tile[k, 3], acc)
        cuda.syncthreads()

    if i < n:
        for c in range(3):
            acc_out[i, c] = G * acc[c]


def plummer(n, rng):
    r = 1.0 / np.sqrt(rng.uniform(0.01, 1.0, n) ** (-2.0 / 3.0) - 1.0)
    v = rng.standard_normal((n, 3))
    pos = v / np.linalg.norm(v, axis=1)[:, None] * r[:, None]
    return np.column_stack([pos, np.full(n, 1.0 / n)]).astype(np.float32)


if __name__ == "__main__":
    b = plummer(300, np.random.default_rng(1))
    a = np.zeros((300, 3), np.float32)
    accelerations[(300 + TILE - 1) // TILE, TILE](b, a)
    print(np.abs(a.sum(axis=0)).max())
