# Building and joining arrays allocates, which a kernel cannot do (as in Numba-CUDA): np.array
# of a literal, np.linspace, np.concatenate, a.ravel() and a.astype() are refused in kernels.
import numpy as np
from numba import cuda

# pykern: --sig k=void(float64[::1])


@cuda.jit
def k(out):
    weights = np.array([1.0, 2.0])
    grid = np.linspace(0.0, 1.0, 4)
    both = np.concatenate((out, out))
    flat = out.ravel()
    single = out.astype(np.float32)
    out[0] = 1.0
