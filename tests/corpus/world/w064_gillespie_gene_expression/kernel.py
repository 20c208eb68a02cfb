"""Stochastic simulation (Gillespie's direct method) of gene expression.

Two species, mRNA (M) and protein (P), four reactions:
    0 -> M (k_m),  M -> 0 (g_m M),  M -> M + P (k_p M),  P -> 0 (g_p P).
Each thread runs one independent cell to T_END with its own xoroshiro128+
stream, and reports the final copy numbers and the number of events.
"""
import math

import numpy as np
from numba import cuda, int64
from numba.cuda.random import (create_xoroshiro128p_states,
                               xoroshiro128p_uniform_float64)

K_M = 2.0
G_M = 0.2
K_P = 5.0
G_P = 0.05
N_REACTIONS = 4
MAX_EVENTS = 100000


@cuda.jit(device=True)
def propensities(m, p, a):
    a[0] = K_M
    a[1] = G_M * m
    a[2] = K_P * m
    a[3] = G_P * p
    return a[0] + a[1] + a[2] + a[3]


@cuda.jit
def ssa(states, t_end, m0, p0, final, events):
    cell = cuda.grid(1)
    if cell >= final.shape[0]:
        return
    a = cuda.local.array(N_REACTIONS, np.float64)
    m = m0
    p = p0
    t = 0.0
    n = 0
    while n < MAX_EVENTS:
        a0 = propensities(m, p, a)
        if a0 <= 0.0:
            break
        u1 = xoroshiro128p_uniform_float64(states, cell)
        u2 = xoroshiro128p_uniform_float64(states, cell)
        t += -math.log(1.0 - u1) / a0
        if t > t_end:
            break
        target = u2 * a0
        r = 0
        acc = a[0]
        while acc < target and r < N_REACTIONS - 1:
            r += 1
            acc += a[r]
        if r == 0:
            m += 1
        elif r == 1:
            m -= 1
        elif r == 2:
            p += 1
        else:
            p -= 1
        n += 1
    final[cell, 0] = m
    final[cell, 1] = p
    events[cell] = n


if __name__ == "__main__":
    cells = 256
    st = create_xoroshiro128p_states(cells, seed=11)
    fin = np.zeros((cells, 2), np.int64)
    ev = np.zeros(cells, np.int64)
    ssa[cells // 64, 64](st, 50.0, 0, 0, fin, ev)
    print(fin.mean(axis=0), K_M / G_M, K_M * K_P / (G_M * G_P))
