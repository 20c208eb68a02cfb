"""Smoothed-particle hydrodynamics: density and pressure in 2-D.

Brute-force neighbour search (fine for a few thousand particles), the cubic
spline kernel of Monaghan, and a Tait equation of state.  Particle data is a
structure of arrays: positions (n, 2), masses (n,).
"""
import math

import numpy as np
from numba import cuda

H = 0.08                                 # smoothing length
SIGMA_2D = 10.0 / (7.0 * math.pi * H * H)
RHO0 = 1000.0
C0 = 20.0
GAMMA = 7
B = RHO0 * C0 ** 2 / GAMMA


@cuda.jit(device=True)
def cubic_spline(r):
    q = r / H
    if q < 1.0:
        return SIGMA_2D * (1.0 - 1.5 * q * q + 0.75 * q ** 3)
    elif q < 2.0:
        return SIGMA_2D * 0.25 * (2.0 - q) ** 3
    else:
        return 0.0


@cuda.jit(device=True)
def tait_pressure(rho):
    return B * ((rho / RHO0) ** GAMMA - 1.0)


@cuda.jit
def density_pressure(pos, mass, rho, p, n_neigh):
    i = cuda.grid(1)
    if i >= pos.shape[0]:
        return
    xi = pos[i, 0]
    yi = pos[i, 1]
    acc = 0.0
    count = 0
    for j in range(pos.shape[0]):
        dx = xi - pos[j, 0]
        dy = yi - pos[j, 1]
        r = math.hypot(dx, dy)
        if r < 2.0 * H:
            acc += mass[j] * cubic_spline(r)
            count += 1
    rho[i] = acc
    p[i] = tait_pressure(acc)
    n_neigh[i] = count - 1       # not counting itself


def particle_block(nx, ny, spacing):
    xs, ys = np.meshgrid(np.arange(nx) * spacing, np.arange(ny) * spacing)
    return np.column_stack([xs.ravel(), ys.ravel()])


if __name__ == "__main__":
    pos = particle_block(20, 20, 0.05)
    m = np.full(len(pos), RHO0 * 0.05 ** 2)
    rho = np.zeros(len(pos)); pr = np.zeros(len(pos)); nn = np.zeros(len(pos), np.int32)
    density_pressure[(len(pos) + 127) // 128, 128](pos, m, rho, pr, nn)
    print(rho.mean(), pr.max(), nn.max())
