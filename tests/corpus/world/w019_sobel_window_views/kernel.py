"""Sobel edge magnitude and orientation of an 8-bit image.

Each thread hands a 3x3 view of the image to small device functions, as
raster libraries do, and writes a clipped uint8 magnitude plus a quantised
direction (0..3) for a later non-maximum suppression step.
"""
import math

import numpy as np
from numba import cuda, uint8

try:
    from numba.cuda import is_available as _cuda_available
except ImportError:          # very old numba
    _cuda_available = None

MAX_U8 = 255
RAD_TO_DEG = 180.0 / math.pi


@cuda.jit(device=True)
def gradient_x(w):
    return (w[0, 2] + 2 * w[1, 2] + w[2, 2]) - (w[0, 0] + 2 * w[1, 0] + w[2, 0])


@cuda.jit(device=True)
def gradient_y(w):
    return (w[2, 0] + 2 * w[2, 1] + w[2, 2]) - (w[0, 0] + 2 * w[0, 1] + w[0, 2])


@cuda.jit(device=True)
def quantise_direction(gx, gy):
    angle = math.atan2(gy, gx) * RAD_TO_DEG
    if angle < 0:
        angle += 180.0
    if angle < 22.5 or angle >= 157.5:
        return 0
    elif angle < 67.5:
        return 1
    elif angle < 112.5:
        return 2
    return 3


@cuda.jit
def sobel(img, magnitude, direction):
    i, j = cuda.grid(2)
    rows, cols = img.shape
    if i >= rows or j >= cols:
        return
    if i == 0 or j == 0 or i == rows - 1 or j == cols - 1:
        magnitude[i, j] = 0
        direction[i, j] = 0
        return
    window = img[i - 1:i + 2, j - 1:j + 2]
    gx = float(gradient_x(window))
    gy = float(gradient_y(window))
    mag = math.sqrt(gx * gx + gy * gy)
    magnitude[i, j] = uint8(min(mag, MAX_U8))
    direction[i, j] = quantise_direction(gx, gy)


def cuda_args(shape, tpb=(16, 16)):
    bpg = tuple(int(math.ceil(s / t)) for s, t in zip(shape, tpb))
    return bpg, tpb


def edges(img):
    mag = np.zeros(img.shape, dtype=np.uint8)
    dirs = np.zeros(img.shape, dtype=np.int32)
    griddim, blockdim = cuda_args(img.shape)
    sobel[griddim, blockdim](img.astype(np.int32), mag, dirs)
    return mag, dirs


if __name__ == "__main__":
    yy, xx = np.mgrid[0:48, 0:40]
    disc = (((yy - 24) ** 2 + (xx - 20) ** 2) < 150).astype(np.uint8) * 200
    m, d = edges(disc)
    print(m.max(), np.bincount(d.ravel()))
