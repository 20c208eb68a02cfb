"""A small gravitational N-body system integrated with kick-drift-kick leapfrog: softened
pairwise accelerations from broadcast differences, in-place velocity and position updates."""
import numpy as np
from numba import njit


@njit
def accelerations(pos, mass, soft):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        d = pos - pos[i]
        r2 = d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2 + soft * soft
        inv_r3 = mass / (r2 * np.sqrt(r2))
        inv_r3[i] = 0.0
        acc[i, 0] = np.sum(d[:, 0] * inv_r3)
        acc[i, 1] = np.sum(d[:, 1] * inv_r3)
        acc[i, 2] = np.sum(d[:, 2] * inv_r3)
    return acc


@njit
def energy(pos, vel, mass, soft):
    kinetic = 0.5 * np.sum(mass * (vel[:, 0] ** 2 + vel[:, 1] ** 2 + vel[:, 2] ** 2))
    potential = 0.0
    for i in range(pos.shape[0] - 1):
        d = pos[i + 1:] - pos[i]
        r = np.sqrt(d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2 + soft * soft)
        potential -= np.sum(mass[i] * mass[i + 1:] / r)
    return kinetic + potential


@njit
def leapfrog(pos, vel, mass, dt, steps):
    soft = 0.05
    e0 = energy(pos, vel, mass, soft)
    acc = accelerations(pos, mass, soft)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = accelerations(pos, mass, soft)
        vel += 0.5 * dt * acc
    centre = np.zeros(3)
    for k in range(3):
        centre[k] = np.sum(mass * pos[:, k]) / np.sum(mass)
    speed = np.sqrt(np.sum(vel * vel) / pos.shape[0])
    return pos, vel, centre, energy(pos, vel, mass, soft) - e0, speed
