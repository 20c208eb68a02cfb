# Module-level NumPy arrays read in kernels: Numba freezes them at compile time (constant
# memory on the GPU). Lookup tables of floats and ints, 1-d and 2-d, dtype given or inferred.
import numpy as np
from numba import cuda

WEIGHTS = np.array([0.25, 0.5, 0.25], dtype=np.float32)
STENCIL = np.array([[1, 2, 1], [0, 0, 0], [-1, -2, -1]])
FLAGS = np.array([True, False, True, True])
SCALE = 3


@cuda.jit(device=True)
def weighted(table, x):
    return table[0] * x + table[1] * x * x + table[2]


@cuda.jit
def lookups(x, out, counts):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = weighted(WEIGHTS, x[i]) * SCALE
        total = 0
        for r in range(STENCIL.shape[0]):
            total += STENCIL[r, i % 3] * (r + 1)
        counts[i, 0] = total
        counts[i, 1] = FLAGS[i % FLAGS.size]
        counts[i, 2] = STENCIL.size + len(WEIGHTS)
