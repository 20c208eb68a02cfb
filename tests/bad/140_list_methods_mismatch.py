import numpy as np
from numba import cuda, njit
from numba.typed import List
# pykern: --sig k=void(int64[:])

@njit
def misuse(n):
    pairs = [(1, 2.0)]
    pairs.insert(0, 5)
    pairs.extend((1, 2))
    empty = []
    empty.pop()
    rows = List.empty_list(np.zeros(2))
    return sorted(range(n)), pairs.index((1, 2.0), 0.5), [1] < [np.zeros(1)]

@cuda.jit
def k(a):
    a[0] = misuse(a[1])
