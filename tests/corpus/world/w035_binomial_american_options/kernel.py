"""American option prices on a Cox-Ross-Rubinstein binomial tree.

One option per thread; the tree is rolled back in a thread-local array of
N_STEPS + 1 values.  Option type is an integer flag (CALL/PUT), as in the
batch files the pricer reads.
"""
import math

import numpy as np
from numba import cuda, float64

N_STEPS = 64
N_NODES = N_STEPS + 1
CALL = 0
PUT = 1


@cuda.jit(device=True)
def payoff(kind, spot, strike):
    if kind == CALL:
        return max(spot - strike, 0.0)
    return max(strike - spot, 0.0)


@cuda.jit
def crr_american(spot, strike, years, rate, vol, kind, price, early):
    i = cuda.grid(1)
    if i >= spot.shape[0]:
        return
    dt = years[i] / N_STEPS
    u = math.exp(vol[i] * math.sqrt(dt))
    d = 1.0 / u
    disc = math.exp(-rate[i] * dt)
    p_up = (math.exp(rate[i] * dt) - d) / (u - d)

    values = cuda.local.array(N_NODES, float64)
    for j in range(N_NODES):
        s_T = spot[i] * u ** j * d ** (N_STEPS - j)
        values[j] = payoff(kind[i], s_T, strike[i])

    exercised = 0
    for step in range(N_STEPS - 1, -1, -1):
        for j in range(step + 1):
            cont = disc * (p_up * values[j + 1] + (1.0 - p_up) * values[j])
            s = spot[i] * u ** j * d ** (step - j)
            ex = payoff(kind[i], s, strike[i])
            if ex > cont:
                values[j] = ex
                exercised += 1
            else:
                values[j] = cont
    price[i] = values[0]
    early[i] = exercised


if __name__ == "__main__":
    n = 8
    spot = np.full(n, 100.0)
    strike = np.linspace(80, 120, n)
    out = np.zeros(n)
    ex = np.zeros(n, dtype=np.int32)
    crr_american[1, 32](spot, strike, np.ones(n), np.full(n, 0.05),
                        np.full(n, 0.2), np.array([CALL, PUT] * 4), out, ex)
    print(out, ex)
