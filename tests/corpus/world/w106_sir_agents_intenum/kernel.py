"""Agent-based SIR epidemic on a contact lattice, one agent per thread.

Agent states are an IntEnum shared with the host-side analysis code.  Each
step, a susceptible agent is infected with probability 1 - (1 - beta)^k for
k infected neighbours, and an infected agent recovers after a fixed number
of days.  Uniform draws come precomputed per agent.
"""
from enum import IntEnum

import numpy as np
from numba import cuda, int8


class State(IntEnum):
    SUSCEPTIBLE = 0
    INFECTED = 1
    RECOVERED = 2


BETA = 0.3
INFECTIOUS_DAYS = 4


@cuda.jit(device=True)
def infected_neighbours(state, r, c):
    rows, cols = state.shape
    k = 0
    if r > 0 and state[r - 1, c] == State.INFECTED:
        k += 1
    if r < rows - 1 and state[r + 1, c] == State.INFECTED:
        k += 1
    if c > 0 and state[r, c - 1] == State.INFECTED:
        k += 1
    if c < cols - 1 and state[r, c + 1] == State.INFECTED:
        k += 1
    return k


@cuda.jit
def sir_step(state, days, draws, new_state, tally):
    r, c = cuda.grid(2)
    rows, cols = state.shape
    if r >= rows or c >= cols:
        return
    s = state[r, c]
    new_state[r, c] = s
    if s == State.SUSCEPTIBLE:
        k = infected_neighbours(state, r, c)
        if k > 0 and draws[r, c] < 1.0 - (1.0 - BETA) ** k:
            new_state[r, c] = State.INFECTED
            days[r, c] = 0
    elif s == State.INFECTED:
        days[r, c] += 1
        if days[r, c] >= INFECTIOUS_DAYS:
            new_state[r, c] = State.RECOVERED
    cuda.atomic.add(tally, new_state[r, c], 1)


def census(state):
    return {s.name: int((state == s).sum()) for s in State}


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    st = np.zeros((32, 32), np.int8)
    st[16, 16] = State.INFECTED
    d = np.zeros((32, 32), np.int32)
    for _ in range(10):
        out = np.zeros_like(st)
        tally = np.zeros(3, np.int32)
        sir_step[(2, 2), (16, 16)](st, d, rng.random((32, 32)), out, tally)
        st = out
    print(census(st))
