from numba import cuda
import numpy as np
# pykern: --sig k=void(float32[:], float32[::1], int64)

@cuda.jit
def k(strided, flat, n):
    a = strided.reshape(2, 3)
    b = flat.reshape(2.5)
    c = flat.view(3)
    d = flat.imag
    e = n.reshape(2)
