"""Overdamped Brownian dynamics of tracer particles in a harmonic trap.

Each thread integrates one particle with Euler-Maruyama steps, drawing
Gaussian kicks from Numba's per-thread xoroshiro128+ states, and adds its
squared displacement at every recorded step to a shared time series (mean
squared displacement) with atomics.
"""
import math

import numpy as np
from numba import cuda, float64
from numba.cuda.random import (create_xoroshiro128p_states,
                               xoroshiro128p_normal_float64)

KT = 1.0            # thermal energy
GAMMA = 2.0         # friction coefficient
K_TRAP = 0.5        # trap stiffness
DT = 0.01
NOISE = math.sqrt(2.0 * KT * DT / GAMMA)
RECORD_EVERY = 5


@cuda.jit(device=True)
def drift(x):
    return -K_TRAP * x / GAMMA


@cuda.jit
def brownian(states, x0, n_steps, final, msd):
    i = cuda.grid(1)
    if i >= x0.shape[0]:
        return
    x = x0[i, 0]
    y = x0[i, 1]
    sx = x
    sy = y
    for step in range(1, n_steps + 1):
        x += drift(x) * DT + NOISE * xoroshiro128p_normal_float64(states, i)
        y += drift(y) * DT + NOISE * xoroshiro128p_normal_float64(states, i)
        if step % RECORD_EVERY == 0:
            d2 = (x - sx) ** 2 + (y - sy) ** 2
            cuda.atomic.add(msd, step // RECORD_EVERY - 1, d2)
    final[i, 0] = x
    final[i, 1] = y


def simulate(n=256, n_steps=100, seed=3):
    states = create_xoroshiro128p_states(n, seed=seed)
    x0 = np.zeros((n, 2))
    final = np.zeros_like(x0)
    msd = np.zeros(n_steps // RECORD_EVERY)
    brownian[(n + 63) // 64, 64](states, x0, n_steps, final, msd)
    return final, msd / n


if __name__ == "__main__":
    f, m = simulate()
    print(m[-1], 2 * KT / K_TRAP)
