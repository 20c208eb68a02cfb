"""Generations of a Life-like cellular automaton on a torus.

The rule is given in B/S notation as two bit masks (birth and survival
neighbour counts), so the same kernel runs Conway's Life (B3/S23),
HighLife (B36/S23) or Day & Night.  Neighbours wrap with Python's modulo,
which is never negative.
"""
import numpy as np
from numba import cuda, uint8

CONWAY = (1 << 3, (1 << 2) | (1 << 3))
HIGHLIFE = ((1 << 3) | (1 << 6), (1 << 2) | (1 << 3))


def parse_rule(text):
    born, survive = text.upper().split("/")
    b = sum(1 << int(c) for c in born[1:])
    s = sum(1 << int(c) for c in survive[1:])
    return b, s


@cuda.jit(device=True)
def live_neighbours(grid, r, c):
    rows, cols = grid.shape
    total = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            total += grid[(r + dr) % rows, (c + dc) % cols]
    return total


@cuda.jit
def step(grid, new_grid, birth_mask, survive_mask, changes):
    r, c = cuda.grid(2)
    rows, cols = grid.shape
    if r >= rows or c >= cols:
        return
    n = live_neighbours(grid, r, c)
    alive = grid[r, c] == 1
    mask = survive_mask if alive else birth_mask
    nxt = uint8(1) if (mask >> n) & 1 else uint8(0)
    new_grid[r, c] = nxt
    if nxt != grid[r, c]:
        cuda.atomic.add(changes, 0, 1)


if __name__ == "__main__":
    g = np.zeros((24, 24), dtype=np.uint8)
    g[1, 2] = g[2, 3] = g[3, 1] = g[3, 2] = g[3, 3] = 1      # a glider
    out = np.zeros_like(g)
    ch = np.zeros(1, dtype=np.int32)
    b, s = parse_rule("B3/S23")
    step[(3, 3), (8, 8)](g, out, b, s, ch)
    print(out.sum(), ch[0], CONWAY == (b, s))
