# pykern: --sig spectrum=void(float32[::1], complex128)
import numpy as np
from numba import cuda

TABLE = np.array([1.0, 2.0, 3.0, 4.0])


@cuda.jit
def spectrum(power, z):
    i = cuda.grid(1)
    if i == 0:
        power[:] = z
        TABLE[2:4] = 0.0
