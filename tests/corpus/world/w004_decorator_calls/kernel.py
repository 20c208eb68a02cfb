"""Tone mapping of an HDR luminance image, kernels built by calling cuda.jit.

The math lives in plain Python functions that are unit-tested on the CPU; the
GPU versions are made from them at import time, without decorators.
"""
import math

import numpy as np
from numba import cuda

EXPOSURE = 1.8
WHITE = 4.0
GAMMA = 1.0 / 2.2


def _reinhard(x, white):
    return x * (1.0 + x / (white * white)) / (1.0 + x)


def _gamma(x):
    return math.pow(max(x, 0.0), GAMMA)


def _clamp01(x):
    return min(max(x, 0.0), 1.0)


reinhard = cuda.jit(device=True)(_reinhard)
gamma = cuda.jit(_gamma, device=True, inline=True)
clamp01 = cuda.jit(device=True)(_clamp01)
_clamp01 = cuda.jit(_clamp01, device=True)


def _tonemap(lum, out):
    x, y = cuda.grid(2)
    if y < lum.shape[0] and x < lum.shape[1]:
        v = reinhard(lum[y, x] * EXPOSURE, WHITE)
        out[y, x] = clamp01(gamma(v))


def _histogram(img, bins):
    x, y = cuda.grid(2)
    if y < img.shape[0] and x < img.shape[1]:
        b = int(_clamp01(img[y, x]) * (bins.shape[0] - 1))
        cuda.atomic.add(bins, b, 1)


tonemap = cuda.jit("void(float32[:, :], float32[:, :])", fastmath=False)(_tonemap)
histogram = cuda.jit(_histogram)


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    hdr = rng.exponential(1.0, size=(48, 40)).astype(np.float32)
    ldr = np.zeros_like(hdr)
    threads = (16, 16)
    blocks = ((hdr.shape[1] + 15) // 16, (hdr.shape[0] + 15) // 16)
    tonemap[blocks, threads](hdr, ldr)
    counts = np.zeros(16, dtype=np.int32)
    histogram[blocks, threads](ldr, counts)
    print(counts)
