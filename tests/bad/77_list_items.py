import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(int64[:])

@njit
def mixed(n):
    xs = [1, (1, 2)]
    arrays = [np.zeros(2)]
    found = np.zeros(2) in arrays
    ys = [3, 1]
    ys.sort(key=None, reverse=1.5)
    zs = [1, 2]
    zs.append(np.zeros(2))
    return np.array(arrays), zs + [np.zeros(1)], ys * 1.5, zs.pop("a")

@cuda.jit
def k(a):
    a[0] = mixed(a[1])
