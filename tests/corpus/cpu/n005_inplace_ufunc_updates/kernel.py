# An optimiser's update loop as numerical code writes it to avoid temporaries: Adam-style
# moment estimates updated in place through ufuncs' output arrays (np.multiply(m, b1, m),
# np.add(m, g, m)), a square root written over its own input, a ReLU clamp with np.maximum
# into the array, a float32 parameter copy written from float64 results, and comparison
# results written into a boolean mask.
import numpy as np
from numba import njit

BETA1 = 0.9
BETA2 = 0.999
EPS = 1e-8


@njit
def gradient(w, target):
    return 2.0 * (w - target)


@njit
def adam(w0, target, rate, steps):
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    scratch = np.empty_like(w)
    for t in range(1, steps + 1):
        g = gradient(w, target)
        np.multiply(m, BETA1, m)
        np.add(m, (1.0 - BETA1) * g, m)
        np.multiply(v, BETA2, v)
        np.multiply(g, g, scratch)
        np.add(v, (1.0 - BETA2) * scratch, v)
        m_hat = m / (1.0 - BETA1 ** t)
        np.divide(v, 1.0 - BETA2 ** t, scratch)
        np.sqrt(scratch, scratch)
        np.add(scratch, EPS, scratch)
        np.subtract(w, rate * m_hat / scratch, w)
    return w


@njit
def train(w0, target, rate, steps):
    w = adam(w0, target, rate, steps)
    clamped = w.copy()
    np.maximum(clamped, 0.0, clamped)
    single = np.empty(w.shape[0], dtype=np.float32)
    returned = np.multiply(w, 2, single)
    mask = np.zeros(w.shape[0], dtype=np.bool_)
    np.greater(w, target, mask)
    grid = np.zeros((3, w.shape[0]))
    np.add(w, np.arange(3.0).reshape(3, 1), grid)
    counts = np.zeros(4, dtype=np.int64)
    np.add(counts, 1, counts)
    np.negative(counts, counts)
    return w, clamped, single, returned, mask, grid, counts
