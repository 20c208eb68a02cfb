# pykern: --sig scale=void(float32[:], float32)
from numba import cuda


@cuda.jit('float32[:]', device=True)
def first(a):
    return a[0]


@cuda.jit
def scale(a, s):
    a[0] = first(a) * s
