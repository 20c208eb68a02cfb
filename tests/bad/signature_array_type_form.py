# numba.types.Array(dtype, ndim, layout): the layout is 'C', 'F' or 'A'.
from numba import cuda, njit, types

# pykern: --sig k=void(float64[:, ::1])


@njit(types.float64(types.Array(types.float64, 2, 'X')))
def corner(grid):
    return grid[0, 0]


@cuda.jit
def k(grid):
    grid[0, 0] = corner(grid)
