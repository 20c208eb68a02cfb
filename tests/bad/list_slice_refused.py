# A list slice takes a list whose items convert to the list's item type, as Numba's setitem
# takes a list (a tuple or an array fails to compile there); del takes one slice, not several
# indices with a slice among them.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def edit(n):
    l = list(range(n))
    l[1:3] = (9, 9)
    l[0:1] = np.arange(2)
    l[2:4] = [1.5j]
    del l[1:2, 3]
    return len(l)


@cuda.jit
def k(a):
    a[0] = edit(a.shape[0])
