# Cooperative groups: cuda.cg.this_grid() and grid.sync(), also from a device function that
# takes the grid group. Each row reads the previous row as its "opposite" threads wrote it.
# Numba's simulator runs a grid barrier only within one block, so the case has one block; the
# unit tests run the multi-block grid.
from numba import cuda


@cuda.jit(device=True)
def step(g, M, row, col):
    M[row, col] = M[row - 1, M.shape[1] - col - 1] + col % 3
    g.sync()


@cuda.jit
def sequential_rows(M, total):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        step(g, M, row, col)
    g.sync()
    if col == 0:
        s = 0
        for c in range(M.shape[1]):
            s += M[M.shape[0] - 1, c]
        total[0] = s
