"""A 2-D soft-disk simulation with a Verlet neighbour list and a Berendsen thermostat,
and the analysis that follows it: radial distribution function and mean squared
displacement.

The neighbour list holds every pair within R_CUT + SKIN; it is rebuilt when any particle
has moved more than half the skin since the last build. The thermostat rescales velocities
toward the target temperature with time constant TAU.
"""
import math

import numpy as np
from numba import njit


class ConfigurationError(ValueError):
    pass


R_CUT = 1.5
SKIN = 0.3
TAU = 0.1
K_SPRING = 50.0
DIM = 2
RDF_BINS = 30
MAX_NEIGHBOURS = 64


@njit
def minimum_image(d, box):
    return d - box * np.round(d / box)


@njit
def build_neighbour_list(pos, box):
    n = pos.shape[0]
    reach2 = (R_CUT + SKIN) ** 2
    neighbours = np.full((n, MAX_NEIGHBOURS), -1, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    for i in range(n - 1):
        d = minimum_image(pos[i + 1:] - pos[i], box)
        r2 = (d * d).sum(axis=1)
        for k in np.nonzero(r2 < reach2)[0]:
            j = i + 1 + k
            if counts[i] == MAX_NEIGHBOURS:
                raise ConfigurationError("too many neighbours: the system is too dense")
            neighbours[i, counts[i]] = j
            counts[i] += 1
    return neighbours, counts


@njit
def soft_forces(pos, box, neighbours, counts):
    f = np.zeros_like(pos)
    energy = 0.0
    for i in range(pos.shape[0]):
        for slot in range(counts[i]):
            j = neighbours[i, slot]
            d = minimum_image(pos[i] - pos[j], box)
            r = math.sqrt(d[0] ** 2 + d[1] ** 2)
            if r < R_CUT:
                overlap = R_CUT - r
                energy += 0.5 * K_SPRING * overlap ** 2
                fij = K_SPRING * overlap / r * d
                f[i] += fij
                f[j] -= fij
    return f, energy


@njit
def temperature(vel):
    return (vel ** 2).sum() / (DIM * (vel.shape[0] - 1))


@njit
def rdf(pos, box, r_max):
    n = pos.shape[0]
    distances = []
    for i in range(n - 1):
        d = minimum_image(pos[i + 1:] - pos[i], box)
        r = np.sqrt((d ** 2).sum(axis=1))
        for value in r[r < r_max]:
            distances.append(value)
    counts, edges = np.histogram(np.array(distances), bins=RDF_BINS, range=(0.0, r_max))
    centres = 0.5 * (edges[1:] + edges[:-1])
    shell = math.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
    density = n / box ** 2
    return centres, counts / (shell * density * n / 2)


@njit(cache=True)
def simulate(pos, vel, box, dt, n_steps, target_temperature):
    if pos.shape[1] != DIM:
        raise ConfigurationError("positions must be two-dimensional")
    if box < 2 * (R_CUT + SKIN):
        raise ConfigurationError("box smaller than twice the list range")
    start = pos.copy()
    unwrapped = pos.copy()
    neighbours, counts = build_neighbour_list(pos, box)
    since_build = np.zeros_like(pos)
    f, energy = soft_forces(pos, box, neighbours, counts)
    rebuilds = 0
    msd = np.zeros(n_steps)
    temps = np.zeros(n_steps)
    for step in range(n_steps):
        vel += 0.5 * dt * f
        move = dt * vel
        pos += move
        unwrapped += move
        since_build += move
        pos[:] = pos % box
        if np.max(np.sum(since_build ** 2, axis=1)) > (0.5 * SKIN) ** 2:
            neighbours, counts = build_neighbour_list(pos, box)
            since_build[:] = 0.0
            rebuilds += 1
        f, energy = soft_forces(pos, box, neighbours, counts)
        vel += 0.5 * dt * f
        t_now = temperature(vel)
        vel *= math.sqrt(1.0 + dt / TAU * (target_temperature / t_now - 1.0))
        temps[step] = temperature(vel)
        msd[step] = ((unwrapped - start) ** 2).sum(axis=1).mean()
    centres, g = rdf(pos, box, 0.5 * box)
    return temps, msd, rebuilds, energy, centres, g, counts.max()
