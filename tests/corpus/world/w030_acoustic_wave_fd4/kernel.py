"""Second-order-in-time, fourth-order-in-space acoustic wave propagation.

Pressure fields p_prev, p_cur on a (nz, nx) grid with a velocity model; the
stencil coefficients are a module-level tuple.  A Ricker wavelet sample is
injected at the source cell by the thread that owns it.
"""
import math

import numpy as np
from numba import cuda

FD_COEFFS = (-5.0 / 2.0, 4.0 / 3.0, -1.0 / 12.0)
RADIUS = len(FD_COEFFS) - 1
PEAK_FREQ = 15.0


def ricker(t, f=PEAK_FREQ):
    a = (math.pi * f * (t - 1.0 / f)) ** 2
    return (1.0 - 2.0 * a) * math.exp(-a)


@cuda.jit(device=True)
def laplacian(p, z, x, inv_dx2):
    acc = 2.0 * FD_COEFFS[0] * p[z, x]
    for k in range(1, RADIUS + 1):
        c = FD_COEFFS[k]
        acc += c * (p[z - k, x] + p[z + k, x] + p[z, x - k] + p[z, x + k])
    return acc * inv_dx2


@cuda.jit
def wave_step(p_prev, p_cur, p_next, vel, dt, dx, src_z, src_x, src_amp):
    z, x = cuda.grid(2)
    nz, nx = p_cur.shape
    if z >= nz or x >= nx:
        return
    if z < RADIUS or x < RADIUS or z >= nz - RADIUS or x >= nx - RADIUS:
        p_next[z, x] = 0.0          # rigid frame
        return
    c2dt2 = (vel[z, x] * dt) ** 2
    p_next[z, x] = (2.0 * p_cur[z, x] - p_prev[z, x]
                    + c2dt2 * laplacian(p_cur, z, x, 1.0 / (dx * dx)))
    if z == src_z and x == src_x:
        p_next[z, x] += c2dt2 * src_amp


def propagate(vel, nt, dt, dx, src):
    fields = [np.zeros_like(vel) for _ in range(3)]
    blocks = ((vel.shape[0] + 15) // 16, (vel.shape[1] + 15) // 16)
    for it in range(nt):
        p_prev, p_cur, p_next = fields
        wave_step[blocks, (16, 16)](p_prev, p_cur, p_next, vel, dt, dx,
                                    src[0], src[1], ricker(it * dt))
        fields = [p_cur, p_next, p_prev]
    return fields[1]


if __name__ == "__main__":
    v = np.full((60, 80), 2000.0)
    v[30:, :] = 3000.0
    print(np.abs(propagate(v, 50, 0.001, 10.0, (10, 40))).max())
