# Numba-CUDA has no advanced indexing (it would make a new array, and a store through a mask or
# positions is not lowered there either): a kernel loops over the positions instead. It works
# in @jit functions called on the host.
import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:], boolean[:], int64[:])


@cuda.jit
def k(out, keep, idx):
    picked = out[keep]
    gathered = out[idx]
    out[keep] = 0.0
    out[idx] = 1.0
    out[..., 0] = 2.0
