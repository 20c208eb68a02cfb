# Small dense linear algebra as simulation code writes it by hand: a transpose copied with
# .copy(), products made by a helper that returns a new float32 matrix, a copy changed while
# the original stays, and the trace of the result.
import numpy as np
from numba import njit


@njit
def matmul(a, b):
    n, m = a.shape
    p = b.shape[1]
    out = np.zeros((n, p), dtype=np.float32)
    for i in range(n):
        for j in range(p):
            acc = np.float32(0.0)
            for k in range(m):
                acc += a[i, k] * b[k, j]
            out[i, j] = acc
    return out


@njit
def gram(a):
    at = a.T.copy()
    return matmul(at, a)


@njit
def step(a, scale):
    g = gram(a)
    shifted = g.copy()
    for i in range(shifted.shape[0]):
        shifted[i, i] += scale
    original = np.copy(a)
    original[0, 0] = -1.0
    trace = 0.0
    for i in range(g.shape[0]):
        trace += g[i, i]
    return g, shifted, original, trace
