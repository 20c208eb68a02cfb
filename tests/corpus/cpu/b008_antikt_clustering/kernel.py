"""Sequential-recombination jet clustering (anti-kt, generalised kt) of one event's particles.

The naive O(N^3) loop as a teaching implementation writes it: find the smallest of all
pair distances d_ij and beam distances d_iB; merge the pair (E-scheme, four-momenta add) or
declare the particle a jet. Jets above a pt threshold are returned leading first.
"""
import math

import numpy as np
from numba import njit

R = 0.6
P_ANTIKT = -1
P_CA = 0
P_KT = 1
PT_MIN = 10.0


@njit
def kinematics(p):
    # p = (px, py, pz, E) -> pt, rapidity, phi
    pt2 = p[0] * p[0] + p[1] * p[1]
    pt = math.sqrt(pt2)
    phi = math.atan2(p[1], p[0])
    if phi < 0.0:
        phi += 2.0 * math.pi
    if p[3] == abs(p[2]) and pt2 == 0.0:
        rap = 1e5 if p[2] >= 0 else -1e5
    else:
        rap = 0.5 * math.log((p[3] + p[2]) / (p[3] - p[2]))
    return pt, rap, phi


@njit
def delta_r2(rap1, phi1, rap2, phi2):
    dphi = abs(phi1 - phi2)
    if dphi > math.pi:
        dphi = 2.0 * math.pi - dphi
    return (rap1 - rap2) ** 2 + dphi ** 2


@njit
def cluster(particles, p=P_ANTIKT, radius=R, ptmin=PT_MIN):
    n = particles.shape[0]
    mom = particles.copy()
    active = np.ones(n, dtype=np.bool_)
    pt = np.empty(n)
    rap = np.empty(n)
    phi = np.empty(n)
    for i in range(n):
        pt[i], rap[i], phi[i] = kinematics(mom[i])
    jets = []
    n_merges = 0
    r2 = radius * radius
    remaining = n
    while remaining > 0:
        best = np.inf
        bi, bj = -1, -1
        for i in range(n):
            if not active[i]:
                continue
            diB = pt[i] ** (2 * p)
            if diB < best:
                best, bi, bj = diB, i, -1
            for j in range(i + 1, n):
                if not active[j]:
                    continue
                dij = min(pt[i] ** (2 * p), pt[j] ** (2 * p)) * delta_r2(rap[i], phi[i], rap[j], phi[j]) / r2
                if dij < best:
                    best, bi, bj = dij, i, j
        if bj < 0:
            active[bi] = False
            if pt[bi] >= ptmin:
                jets.append((pt[bi], rap[bi], phi[bi], mom[bi, 3]))
        else:
            mom[bi] += mom[bj]
            active[bj] = False
            pt[bi], rap[bi], phi[bi] = kinematics(mom[bi])
            n_merges += 1
            remaining -= 1
            continue
        remaining -= 1
    jets.sort(reverse=True)
    out = np.empty((len(jets), 4))
    for k, jet in enumerate(jets):
        out[k] = jet
    return out, n_merges


@njit(cache=True)
def cluster_event(particles):
    if particles.ndim != 2 or particles.shape[1] != 4:
        raise ValueError("particles must be an (n, 4) array of (px, py, pz, E)")
    antikt, merges_akt = cluster(particles)
    kt, merges_kt = cluster(particles, P_KT)
    ca, _ = cluster(particles, p=P_CA, radius=0.4)
    total_pt = np.sqrt(particles[:, 0] ** 2 + particles[:, 1] ** 2).sum()
    return antikt, kt, ca.shape[0], merges_akt, merges_kt, antikt[:, 0].sum() / total_pt
