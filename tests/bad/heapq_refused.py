import heapq

import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:])

@njit
def misuse(x):
    heap = [(1.0, 2)]
    heapq.heappush(heap, (1, 2))      # Numba: heap type must be the same as item type
    waves = [1j, 2j]
    heapq.heapify(waves)              # complex numbers have no '<'
    empty = []
    heapq.heappop(empty)              # the items' type is unknown
    heapq.heappush(x, 1.0)            # a number is no heap
    return heapq.heapreplace(heap, (0.5, 1))[0]

@cuda.jit
def k(a):
    a[0] = misuse(a[1])
