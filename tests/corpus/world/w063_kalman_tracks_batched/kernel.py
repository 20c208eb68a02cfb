"""Batched constant-velocity Kalman filters for 1-D radar tracks.

One thread filters one track through all of its measurements (NaN marks a
missed detection: predict only).  State [position, velocity] and the 2x2
covariance live in thread-local arrays; the filtered positions and the
normalised innovation squared (a consistency check) are written out.
"""
import math

import numpy as np
from numba import cuda, float64

Q_ACCEL = 0.5        # process noise (acceleration variance)
R_MEAS = 4.0         # measurement noise variance


@cuda.jit(device=True)
def predict(x, P, dt):
    x[0] = x[0] + dt * x[1]
    p00 = P[0, 0] + dt * (P[1, 0] + P[0, 1]) + dt * dt * P[1, 1]
    p01 = P[0, 1] + dt * P[1, 1]
    p10 = P[1, 0] + dt * P[1, 1]
    q = Q_ACCEL
    P[0, 0] = p00 + 0.25 * dt ** 4 * q
    P[0, 1] = p01 + 0.5 * dt ** 3 * q
    P[1, 0] = p10 + 0.5 * dt ** 3 * q
    P[1, 1] = P[1, 1] + dt * dt * q


@cuda.jit(device=True)
def update(x, P, z):
    s = P[0, 0] + R_MEAS
    k0 = P[0, 0] / s
    k1 = P[1, 0] / s
    innov = z - x[0]
    x[0] += k0 * innov
    x[1] += k1 * innov
    p00, p01, p10, p11 = P[0, 0], P[0, 1], P[1, 0], P[1, 1]
    P[0, 0] = (1.0 - k0) * p00
    P[0, 1] = (1.0 - k0) * p01
    P[1, 0] = p10 - k1 * p00
    P[1, 1] = p11 - k1 * p01
    return innov * innov / s


@cuda.jit
def filter_tracks(meas, dt, est, nis):
    t = cuda.grid(1)
    if t >= meas.shape[0]:
        return
    x = cuda.local.array(2, float64)
    P = cuda.local.array((2, 2), float64)
    x[0] = meas[t, 0]
    x[1] = 0.0
    P[0, 0] = R_MEAS
    P[0, 1] = 0.0
    P[1, 0] = 0.0
    P[1, 1] = 100.0
    est[t, 0] = x[0]
    total = 0.0
    for k in range(1, meas.shape[1]):
        predict(x, P, dt)
        z = meas[t, k]
        if not math.isnan(z):
            total += update(x, P, z)
        est[t, k] = x[0]
    nis[t] = total


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    truth = np.cumsum(np.full((8, 60), 1.5), axis=1)
    m = truth + rng.normal(0, 2.0, truth.shape)
    m[rng.random(m.shape) < 0.1] = np.nan
    e = np.zeros_like(m); s = np.zeros(8)
    filter_tracks[1, 32](m, 1.0, e, s)
    print(np.abs(e - truth)[:, 20:].mean(), s.mean())
