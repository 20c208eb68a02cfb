# Array methods and views: reshape (C order, a tuple or extents, an inferred -1), view as another
# dtype (the same size and a smaller one, on a slice of bytes), and .real/.imag of a complex
# array, written through and used by an atomic.
import numpy as np
from numba import cuda


@cuda.jit
def array_views(flat, n0, n1, bytes_, z, out, bits):
    i = cuda.grid(1)
    grid = flat.reshape((n0, n1))
    rows = flat.reshape(4, -1)
    if i < grid.shape[0]:
        for j in range(grid.shape[1]):
            out[i, j] = grid[i, j] + rows.shape[1] * 100
    if i < bits.shape[0]:
        bits[i] = flat.view(np.uint32)[i]
    if i == 0:
        word = bytes_[4:12].view(np.int32)
        out[0, 0] = word[0] + word[1] + word.shape[0] * 1e6
    if i < z.shape[0]:
        cuda.atomic.add(z.real, i, 1.0)
        z.imag[i] = z.imag[i] * 2 + z.real[i]
