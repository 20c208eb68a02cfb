"""Separable Gaussian blur with the filter taps in constant memory.

The taps are computed once at import with NumPy and copied into each kernel
with cuda.const.array_like.  Two passes (rows, then columns) with clamped
borders, on float32 images.
"""
import numpy as np
from numba import cuda

RADIUS = 3
SIGMA = 1.5
_offsets = np.arange(-RADIUS, RADIUS + 1, dtype=np.float64)
TAPS = np.exp(-(_offsets ** 2) / (2.0 * SIGMA * SIGMA))
TAPS = (TAPS / TAPS.sum()).astype(np.float32)


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)


@cuda.jit
def blur_rows(src, dst):
    w = cuda.const.array_like(TAPS)
    r, c = cuda.grid(2)
    h, wd = src.shape
    if r < h and c < wd:
        acc = 0.0
        for k in range(-RADIUS, RADIUS + 1):
            acc += w[k + RADIUS] * src[r, clamp(c + k, 0, wd - 1)]
        dst[r, c] = acc


@cuda.jit
def blur_cols(src, dst):
    w = cuda.const.array_like(TAPS)
    r, c = cuda.grid(2)
    h, wd = src.shape
    if r < h and c < wd:
        acc = 0.0
        for k in range(-RADIUS, RADIUS + 1):
            acc += w[k + RADIUS] * src[clamp(r + k, 0, h - 1), c]
        dst[r, c] = acc


def gaussian_blur(img):
    tmp = np.empty_like(img)
    out = np.empty_like(img)
    grid = ((img.shape[0] + 15) // 16, (img.shape[1] + 15) // 16)
    blur_rows[grid, (16, 16)](img, tmp)
    blur_cols[grid, (16, 16)](tmp, out)
    return out


if __name__ == "__main__":
    img = np.zeros((32, 32), np.float32)
    img[16, 16] = 1.0
    print(gaussian_blur(img).sum(), TAPS.sum())
