from __future__ import braces
# CPython: not a chance.
from numba import cuda

@cuda.jit
def k(a):
    a[0] = 1
