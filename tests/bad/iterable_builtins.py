# sum(), min() and max() of one iterable take what Numba's overloads take: lists, 1-d arrays,
# ranges and (min, max) tuples of numbers; on the host only, since a kernel holds no list.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[:, ::1], complex128[::1])


@njit
def totals(grid, z):
    rows = sum(grid)                 # a 2-d array iterates over rows in Python
    lowest = min(z)                  # complex numbers have no order
    nothing = max(())
    keyed = min([1.0, 2.0], key=abs)
    many = sum([1.0], 0.0, 1.0)
    return rows + lowest + nothing + keyed + many


@cuda.jit
def k(grid, z):
    grid[0, 0] = sum(grid[0])        # fine on the host, but kernels hold no lists or iterators
    grid[0, 1] = totals(grid, z)
