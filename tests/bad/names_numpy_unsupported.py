# NumPy functions pykern does not support in kernels (array functions), or that NumPy does not
# have: the tables say what pykern supports, so both read "not supported".
import numpy as np
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = np.fancy_unknown(a[i]) + np.convolve(a)[0] + np.random.unifrom(0.0, 1.0)
