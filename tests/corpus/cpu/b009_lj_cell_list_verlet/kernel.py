"""Lennard-Jones fluid in a periodic box: forces from linked cell lists, velocity Verlet.

Particles are binned into cells at least the cutoff wide (head/next linked lists); each
particle interacts with the particles of its own and the 26 neighbouring cells under the
minimum-image convention, with the potential shifted to zero at the cutoff.
"""
import numpy as np
from numba import njit

SIGMA = 1.0
EPSILON = 1.0
R_CUT = 2.5
MASS = 1.0
E_SHIFT = 4.0 * EPSILON * ((SIGMA / R_CUT) ** 12 - (SIGMA / R_CUT) ** 6)
EMPTY = -1
NEIGHBOUR_OFFSETS = (-1, 0, 1)


@njit
def build_cells(pos, box, n_side):
    cell_size = box / n_side
    head = np.full(n_side ** 3, EMPTY, dtype=np.int64)
    nxt = np.full(pos.shape[0], EMPTY, dtype=np.int64)
    idx = (np.floor(pos / cell_size).astype(np.int64)) % n_side
    for i in range(pos.shape[0]):
        c = (idx[i, 0] * n_side + idx[i, 1]) * n_side + idx[i, 2]
        nxt[i] = head[c]
        head[c] = i
    return head, nxt, idx


@njit
def pair_force(r2):
    inv2 = SIGMA * SIGMA / r2
    inv6 = inv2 * inv2 * inv2
    energy = 4.0 * EPSILON * (inv6 * inv6 - inv6) - E_SHIFT
    f_over_r = 24.0 * EPSILON * (2.0 * inv6 * inv6 - inv6) / r2
    return energy, f_over_r


@njit
def forces(pos, box):
    n = pos.shape[0]
    n_side = max(3, int(box // R_CUT))
    head, nxt, idx = build_cells(pos, box, n_side)
    f = np.zeros_like(pos)
    potential = 0.0
    virial = 0.0
    rc2 = R_CUT * R_CUT
    for i in range(n):
        cx, cy, cz = idx[i]
        for dx in NEIGHBOUR_OFFSETS:
            for dy in NEIGHBOUR_OFFSETS:
                for dz in NEIGHBOUR_OFFSETS:
                    c = (((cx + dx) % n_side) * n_side + (cy + dy) % n_side) * n_side + (cz + dz) % n_side
                    j = head[c]
                    while j != EMPTY:
                        if j > i:
                            d = pos[i] - pos[j]
                            d -= box * np.rint(d / box)
                            r2 = np.dot(d, d)
                            if r2 < rc2:
                                e, f_over_r = pair_force(r2)
                                potential += e
                                virial += f_over_r * r2
                                f[i] += f_over_r * d
                                f[j] -= f_over_r * d
                        j = nxt[j]
    return f, potential, virial


@njit
def kinetic_energy(vel):
    return 0.5 * MASS * np.sum(vel ** 2)


@njit(cache=True, fastmath=False)
def run_md(pos, vel, box, dt, n_steps):
    if box < 3 * R_CUT:
        raise ValueError("box must hold at least three cells per side")
    pos = pos % box
    f, pot, vir = forces(pos, box)
    energies = np.empty((n_steps + 1, 2))
    energies[0] = kinetic_energy(vel), pot
    n = pos.shape[0]
    pressure = 0.0
    for step in range(1, n_steps + 1):
        vel += 0.5 * dt * f / MASS
        pos += dt * vel
        pos %= box
        f, pot, vir = forces(pos, box)
        vel += 0.5 * dt * f / MASS
        energies[step, 0] = kinetic_energy(vel)
        energies[step, 1] = pot
        volume = box ** 3
        pressure = (2.0 * energies[step, 0] + vir) / (3.0 * volume)
    total = energies.sum(axis=1)
    drift = np.abs(total - total[0]).max() / n
    return pos, vel, energies, pressure, drift, np.abs(f.sum(axis=0)).max() < 1e-9
