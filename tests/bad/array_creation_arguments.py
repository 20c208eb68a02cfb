# What np.zeros and friends take, as Numba types them: a dtype known at compile time, integer
# shapes (np.empty(()) is a 0-d array), np.arange without string dtypes or unsigned bounds, numbers to
# fill with, arrays to model on, and the keywords each has.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[::1], uint32)


@njit
def made(n, x, u, a):
    kind = x * 2.0
    a1 = np.zeros(n, dtype=kind)
    a2 = np.ones(x)
    a3 = np.empty(())
    a4 = np.arange(n, dtype="float64")
    a5 = np.arange(u)
    a6 = np.full(n, a)
    a7 = np.zeros_like(x)
    a8 = np.empty(n, order="F")
    a9 = np.zeros(n, dtype=int)
    return n


@cuda.jit
def k(out, u):
    out[0] = made(3, 2.0, u, out)
