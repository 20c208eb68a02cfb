"""Adaptive time step for a shallow-water solver (CFL condition).

The largest wave speed |u| + sqrt(g h) over the grid sets the next time
step.  Speeds are computed by a kernel; their maximum comes from a
cuda.reduce reduction, as in finite-volume codes that keep state on the GPU.
"""
import math

import numpy as np
from numba import cuda

GRAVITY = 9.81
CFL = 0.45
H_DRY = 1e-6


@cuda.reduce
def max_reduce(a, b):
    return a if a > b else b


@cuda.jit
def wave_speeds(h, hu, speed):
    i = cuda.grid(1)
    if i < h.shape[0]:
        depth = h[i]
        if depth > H_DRY:
            speed[i] = abs(hu[i] / depth) + math.sqrt(GRAVITY * depth)
        else:
            speed[i] = 0.0


def next_dt(h, hu, dx):
    speed = np.zeros_like(h)
    wave_speeds[(h.size + 127) // 128, 128](h, hu, speed)
    smax = max_reduce(speed, init=0.0)
    return CFL * dx / smax if smax > 0 else math.inf


if __name__ == "__main__":
    x = np.linspace(0, 1, 400)
    h = np.where(x < 0.5, 2.0, 1.0)
    print(next_dt(h, np.zeros_like(h), x[1] - x[0]))
