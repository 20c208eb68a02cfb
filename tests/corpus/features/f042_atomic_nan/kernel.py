# cuda.atomic.max/min with NaN: a NaN on either side leaves the element unchanged; nanmax/nanmin
# ignore a NaN value and replace a NaN element (numba-cuda's rule, issue 16).
import math
from numba import cuda


@cuda.jit
def atomic_nan(a, values, olds):
    for i in range(values.size):
        v = values[i]
        olds[i, 0] = cuda.atomic.max(a, 0, v)
        olds[i, 1] = cuda.atomic.min(a, 1, v)
        olds[i, 2] = cuda.atomic.nanmax(a, 2, v)
        olds[i, 3] = cuda.atomic.nanmin(a, 3, v)
    cuda.atomic.max(a, 4, 1.0)
    cuda.atomic.min(a, 5, 1.0)
    cuda.atomic.nanmax(a, 6, 1.0)
    cuda.atomic.nanmin(a, 7, 1.0)
