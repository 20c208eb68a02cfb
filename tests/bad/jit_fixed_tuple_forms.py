# to_fixed_tuple needs a 1-d array and a length known at compile time; literal_unroll over a
# tuple of several types is a for loop's iterable itself, not enumerate's.
import numpy as np
from numba import cuda, njit, literal_unroll
from numba.np.unsafe.ndarray import to_fixed_tuple

# pykern: --sig k=void(float64[::1], float64[:, ::1], int64)


@njit
def firsts(a, grid, n):
    t = to_fixed_tuple(a, n)
    u = to_fixed_tuple(grid, 2)
    s = 0.0
    for j, v in enumerate(literal_unroll((1, 2.5))):
        s += v
    return s


@cuda.jit
def k(a, grid, n):
    a[0] = firsts(a, grid, n)
