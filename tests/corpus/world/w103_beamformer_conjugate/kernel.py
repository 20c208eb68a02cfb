"""Narrow-band delay-and-sum beamforming for a uniform linear array.

Input: complex64 snapshots (n_sensors, n_snapshots) of one frequency bin.
Each thread steers to one look angle: it phase-aligns the sensors, sums
them, and averages the output power over snapshots.
"""
import cmath
import math

import numpy as np
from numba import cuda, complex64, float32

SPEED_OF_SOUND = 1500.0       # m/s, water
FREQ = 1000.0                 # Hz
WAVELENGTH = SPEED_OF_SOUND / FREQ
SPACING = WAVELENGTH / 2.0
K_D = 2.0 * math.pi * SPACING / WAVELENGTH


@cuda.jit(device=True)
def steering_phase(m, theta):
    return complex64(cmath.exp(complex(0.0, -K_D * m * math.sin(theta))))


@cuda.jit
def beam_power(snapshots, angles, power, peak_snapshot):
    a = cuda.grid(1)
    if a >= angles.shape[0]:
        return
    n_sens, n_snap = snapshots.shape
    theta = angles[a]
    total = float32(0.0)
    best = float32(-1.0)
    best_at = -1
    for s in range(n_snap):
        acc = complex64(0)
        for m in range(n_sens):
            acc += snapshots[m, s] * steering_phase(m, theta).conjugate()
        p = abs(acc) ** 2 / n_sens
        total += p
        if p > best:
            best = p
            best_at = s
    power[a] = total / n_snap
    peak_snapshot[a] = best_at


def simulate(n_sens, n_snap, source_deg, snr_db, rng):
    th = math.radians(source_deg)
    m = np.arange(n_sens)[:, None]
    sig = np.exp(1j * rng.uniform(0, 2 * np.pi, n_snap))[None, :]
    x = np.exp(1j * K_D * m * math.sin(th)) * sig
    noise = (rng.standard_normal(x.shape) + 1j * rng.standard_normal(x.shape))
    x = x + noise * 10 ** (-snr_db / 20) / math.sqrt(2)
    return x.astype(np.complex64)


if __name__ == "__main__":
    rng = np.random.default_rng(2)
    snaps = simulate(12, 64, 20.0, 10.0, rng)
    ang = np.radians(np.linspace(-90, 90, 181)).astype(np.float32)
    pw = np.zeros(181, np.float32)
    pk = np.zeros(181, np.int32)
    beam_power[2, 96](snaps, ang, pw, pk)
    print(np.degrees(ang[pw.argmax()]))
