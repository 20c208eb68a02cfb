"""Grazing agents depleting a 2-D resource field (ecology model step).

Each agent eats from the cell it stands on and from its four neighbours.
The field has a one-cell border of bare ground that no agent reaches; the
kernel works on the interior view.  Several agents may share a cell, so
consumption is an atomic subtraction, and each agent records the amount
that was there before it ate.
"""
import numpy as np
from numba import cuda

BITE = 3
SIDE_BITE = 1


@cuda.jit
def graze(field, agents, eaten, before):
    a = cuda.grid(1)
    if a >= agents.shape[0]:
        return
    interior = field[1:-1, 1:-1]
    r = agents[a, 0]
    c = agents[a, 1]
    before[a] = cuda.atomic.sub(interior, (r, c), BITE)
    total = BITE
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr = r + dr
        cc = c + dc
        if 0 <= rr < interior.shape[0] and 0 <= cc < interior.shape[1]:
            cuda.atomic.sub(interior, (rr, cc), SIDE_BITE)
            total += SIDE_BITE
    eaten[a] = total


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    f = np.full((12, 12), 100, dtype=np.int32)
    ag = rng.integers(0, 10, (30, 2)).astype(np.int32)
    e = np.zeros(30, np.int32); b = np.zeros(30, np.int32)
    graze[1, 32](f, ag, e, b)
    print(f.sum(), e.sum())
