"""Windowed FIR smoothing of a sampled signal on the GPU.

Long arithmetic is split over several lines with backslashes, in the style of
older signal-processing code written before black-formatted parentheses.
"""
import math

import numpy as np
from numba import cuda, \
    float64

TAPS = 7
HALF = TAPS // 2
GAIN = 0.5 + \
    0.25


@cuda.jit(device=True)
def hann(k, \
         n):
    return 0.5 - \
        0.5 * math.cos(2.0 * math.pi * (k + 1) / \
                       (n + 1))


@cuda.jit(device=True)
def clamp_index(i, \
                n):
    if i < 0:
        return 0
    elif i >= \
            n:
        return n - 1
    return i


@cuda.jit
def fir_smooth(signal, out):
    i = cuda.grid(1)
    n = signal.shape[0]
    if i >= n or \
            i < 0:
        return
    window = cuda.local.array(TAPS, float64)
    norm = 0.0
    for k in \
            range(TAPS):
        window[k] = hann(k, \
                         TAPS)
        norm += \
            window[k]
    acc = 0.0
    for k in range(TAPS):
        j = clamp_index(i + k - \
                        HALF, n)
        acc += window[k] * \
            signal[j]
    edge = 1.0 if HALF <= i < n - HALF \
        else GAIN
    out[i] = acc / norm * \
        edge + \
        signal[i: \
               i + 1][0] * 0.0


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    x = np.sin(np.linspace(0.0, 6.0, 200)) + \
        0.1 * rng.standard_normal(200)
    d_x = cuda.to_device(x)
    d_y = cuda.device_array_like(d_x)
    fir_smooth[(x.size + 63) // 64, 64](d_x, d_y)
    print(d_y.copy_to_host()[:5])
