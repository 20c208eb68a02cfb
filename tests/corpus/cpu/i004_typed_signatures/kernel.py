"""Grid bookkeeping with explicit Numba signatures, as a mesh library declares its kernels."""
import numpy as np
import numba
from numba import types, float64, int64, njit, literal_unroll
from numba.core import types as core_types
from numba.np.unsafe.ndarray import to_fixed_tuple

NDIM = 2
WEIGHTS = (0.5, 0.25, 0.25)


@njit(types.float64(types.float64[:]))
def total(values):
    s = 0.0
    for v in values:
        s += v
    return s


@numba.jit(numba.types.float64(numba.types.Array(numba.types.float64, 2, 'C')), nopython=True)
def corner_sum(grid):
    return grid[0, 0] + grid[0, -1] + grid[-1, 0] + grid[-1, -1]


@njit(core_types.int64(core_types.UniTuple(core_types.int64, 2)))
def cell_count(shape):
    return shape[0] * shape[1]


@njit([float64(int64, float64), float64(float64, float64)])
def scaled(i, x):
    return i * x


@njit("float64(float64[:])")
def weighted(values):
    acc = 0.0
    k = 0
    for w in literal_unroll(WEIGHTS):
        acc += w * values[k]
        k += 1
    return acc


@njit
def describe(grid, flat):
    shape = to_fixed_tuple(np.array(grid.shape), NDIM)
    first = to_fixed_tuple(flat, 3)
    return (cell_count(shape), corner_sum(grid), total(flat), scaled(3, 0.5), scaled(1.5, 2.0),
            weighted(flat), first[0] + first[1] + first[2], shape[1])
