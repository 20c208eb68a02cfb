"""Finite impulse response filtering of many channels at once.

A generalised ufunc maps each channel (a row) and the shared tap vector to a
filtered row of the same length ("same" mode, zero padded).  Designing the
taps happens on the host with NumPy.
"""
import math

import numpy as np
from numba import cuda, guvectorize


def design_lowpass(n_taps, cutoff):
    """Windowed-sinc low-pass taps (Hamming window), normalised to unit gain."""
    m = np.arange(n_taps) - (n_taps - 1) / 2.0
    h = np.sinc(2 * cutoff * m) * np.hamming(n_taps)
    return h / h.sum()


@cuda.jit(device=True)
def tap_index(i, k, half):
    return i + k - half


@guvectorize(['void(float64[:], float64[:], float64[:])',
              'void(float32[:], float32[:], float32[:])'],
             '(n),(k)->(n)', target='cuda')
def fir_same(x, taps, y):
    n = x.shape[0]
    k = taps.shape[0]
    half = k // 2
    for i in range(n):
        acc = 0.0
        for t in range(k):
            j = tap_index(i, t, half)
            if 0 <= j < n:
                acc += taps[k - 1 - t] * x[j]
        y[i] = acc


if __name__ == "__main__":
    t = np.linspace(0, 1, 256)
    sig = np.stack([np.sin(2 * math.pi * f * t) for f in (3, 40, 90)])
    out = fir_same(sig, design_lowpass(31, 0.05))
    print(np.abs(out).max(axis=1))
