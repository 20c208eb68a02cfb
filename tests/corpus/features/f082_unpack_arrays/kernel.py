"""Unpacking arrays into names: particle positions stored as rows of an (n, 3) array.

`x, y, z = pos[i]` reads one particle; `near, far = planes` splits a (2, k) array into its rows,
as simulation and geometry codes write it.
"""
import math

import numpy as np
from numba import cuda


@cuda.jit(device=True)
def norm3(v):
    x, y, z = v
    return math.sqrt(x * x + y * y + z * z)


@cuda.jit
def distances(pos, planes, out, spread):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        x, y, z = pos[i]
        near, far = planes
        lo, hi = near[0], far[0]
        r = norm3(pos[i])
        out[i] = min(max(r, lo), hi) + 0.0 * (x + y + z)
        a, b, c = pos[i, :]
        spread[i] = b - a + c


if __name__ == "__main__":
    pos = np.random.default_rng(3).normal(size=(40, 3))
    planes = np.array([[0.5, 0.0], [1.5, 0.0]])
    out = np.zeros(40)
    spread = np.zeros(40)
    distances[2, 32](pos, planes, out, spread)
    print(out[:4], spread[:4])
