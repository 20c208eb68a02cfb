"""Event-shape variables of hadronic events: sphericity and aplanarity from the
momentum tensor, transverse thrust by scanning axis angles, and the scalar sum HT.

Particles of all events are flat rows (px, py, pz); `offsets` marks where each event
starts. Events with fewer than MIN_PARTICLES particles get NaN shapes.
"""
import math

import numpy as np
from numba import njit

MIN_PARTICLES = 3
N_THRUST_ANGLES = 180
EMPTY_SHAPES = (np.nan, np.nan, np.nan)


@njit
def momentum_tensor(p):
    tensor = np.zeros((3, 3))
    norm = 0.0
    for k in range(p.shape[0]):
        v = p[k]
        tensor += np.outer(v, v)
        norm += v @ v
    return tensor / norm


@njit
def sphericity(p):
    eigenvalues = np.linalg.eigvalsh(momentum_tensor(p))   # ascending
    l3, l2, l1 = eigenvalues
    return 1.5 * (l2 + l3), 1.5 * l3, l1


@njit
def transverse_thrust(p):
    pt_sum = np.sum(np.hypot(p[:, 0], p[:, 1]))
    best = 0.0
    best_angle = 0.0
    for a in range(N_THRUST_ANGLES):
        phi = math.pi * a / N_THRUST_ANGLES
        projection = np.abs(p[:, 0] * math.cos(phi) + p[:, 1] * math.sin(phi)).sum()
        if projection > best:
            best, best_angle = projection, phi
    return best / pt_sum, best_angle


@njit(cache=True)
def event_shapes(momenta, offsets):
    n_events = len(offsets) - 1
    shapes = np.empty((n_events, 3))
    thrust = np.full(n_events, np.nan)
    axis = np.zeros(n_events)
    ht = np.zeros(n_events)
    for ev in range(n_events):
        p = momenta[offsets[ev]:offsets[ev + 1]]
        ht[ev] = np.sqrt(p[:, 0] ** 2 + p[:, 1] ** 2).sum()
        if p.shape[0] < MIN_PARTICLES:
            shapes[ev, 0], shapes[ev, 1], shapes[ev, 2] = EMPTY_SHAPES
            continue
        s, a, l1 = sphericity(p)
        shapes[ev, 0] = s
        shapes[ev, 1] = a
        shapes[ev, 2] = l1
        thrust[ev], axis[ev] = transverse_thrust(p)
    valid = ~np.isnan(thrust)
    return shapes, thrust, axis, ht, np.nanmean(shapes[:, 0]), valid.sum()
