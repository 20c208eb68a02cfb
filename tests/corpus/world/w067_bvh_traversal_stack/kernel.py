"""Ray casting against a bounding-volume hierarchy with an explicit stack.

Recursion is avoided on the GPU: each thread keeps a small stack of node
indices in local memory.  Nodes are rows of a float array (box min, box max)
plus an int array (left, right, first primitive, count); leaves hold
spheres.  Outputs: nearest hit distance (inf for a miss), the sphere hit,
and how many nodes were visited.
"""
import math

import numpy as np
from numba import cuda, int32

STACK_SIZE = 32
LEAF = -1
INF = math.inf


@cuda.jit(device=True)
def slab_hit(box, node, ox, oy, oz, idx, idy, idz, t_max):
    t0 = (box[node, 0] - ox) * idx
    t1 = (box[node, 3] - ox) * idx
    tmin = min(t0, t1)
    tmax = max(t0, t1)
    t0 = (box[node, 1] - oy) * idy
    t1 = (box[node, 4] - oy) * idy
    tmin = max(tmin, min(t0, t1))
    tmax = min(tmax, max(t0, t1))
    t0 = (box[node, 2] - oz) * idz
    t1 = (box[node, 5] - oz) * idz
    tmin = max(tmin, min(t0, t1))
    tmax = min(tmax, max(t0, t1))
    return tmax >= max(tmin, 0.0) and tmin < t_max


@cuda.jit(device=True)
def sphere_hit(sph, s, ox, oy, oz, dx, dy, dz):
    lx = ox - sph[s, 0]
    ly = oy - sph[s, 1]
    lz = oz - sph[s, 2]
    b = lx * dx + ly * dy + lz * dz
    c = lx * lx + ly * ly + lz * lz - sph[s, 3] * sph[s, 3]
    disc = b * b - c
    if disc < 0.0:
        return INF
    root = math.sqrt(disc)
    t = -b - root
    if t > 1e-9:
        return t
    t = -b + root
    return t if t > 1e-9 else INF


@cuda.jit
def trace(rays, box, links, spheres, t_hit, prim_hit, visited):
    r = cuda.grid(1)
    if r >= rays.shape[0]:
        return
    ox, oy, oz = rays[r, 0], rays[r, 1], rays[r, 2]
    dx, dy, dz = rays[r, 3], rays[r, 4], rays[r, 5]
    idx = 1.0 / dx if dx != 0.0 else INF
    idy = 1.0 / dy if dy != 0.0 else INF
    idz = 1.0 / dz if dz != 0.0 else INF

    stack = cuda.local.array(STACK_SIZE, int32)
    top = 0
    stack[top] = 0
    top += 1
    best = INF
    best_prim = -1
    count = 0
    while top > 0:
        top -= 1
        node = stack[top]
        count += 1
        if not slab_hit(box, node, ox, oy, oz, idx, idy, idz, best):
            continue
        if links[node, 0] == LEAF:
            first = links[node, 2]
            for s in range(first, first + links[node, 3]):
                t = sphere_hit(spheres, s, ox, oy, oz, dx, dy, dz)
                if t < best:
                    best = t
                    best_prim = s
        else:
            stack[top] = links[node, 1]
            stack[top + 1] = links[node, 0]
            top += 2
    t_hit[r] = best
    prim_hit[r] = best_prim
    visited[r] = count
