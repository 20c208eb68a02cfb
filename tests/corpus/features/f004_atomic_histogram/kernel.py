# Atomic adds from many blocks.
from numba import cuda


@cuda.jit
def histogram(values, bins):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(bins, values[i] % bins.shape[0], 1)
        cuda.atomic.max(bins, bins.shape[0] - 1, values[i])
