# 0-d arrays where Numba 0.68 refuses them (len, float(), a.fill, np.sort, an index or slice,
# a[...] read whole, iteration) or pykern does not take them yet (np.sum with an axis, a
# function of other values): each is named at its call. Kernels take no 0-d array parameter.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:])
# pykern: --sig scale=void(Array(float64, 0, 'C'))


@njit
def forms(a):
    z = np.zeros(())
    n = len(z)
    f = float(z)
    z.fill(1.0)
    s = np.sort(z)
    t = np.sum(z, axis=0)
    u = np.hypot(z, a[0], z)
    e = z[0]
    w = z[...]
    for v in z:
        n += 1
    return 0.0


@cuda.jit
def k(a):
    a[0] = forms(a)


@cuda.jit
def scale(z):
    z[()] = 2.0
