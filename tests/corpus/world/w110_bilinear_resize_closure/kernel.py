"""Bilinear image resizing with edge clamping (align_corners=False).

The sampling helper is a small function defined inside the kernel that reads
the kernel's image and size, a style common in quick GPU ports of NumPy code.
"""
import math

import numpy as np
from numba import cuda


@cuda.jit
def resize_bilinear(src, dst):
    oy, ox = cuda.grid(2)
    in_h, in_w = src.shape
    out_h, out_w = dst.shape
    if oy >= out_h or ox >= out_w:
        return

    def pixel(y, x):
        y = min(max(y, 0), in_h - 1)
        x = min(max(x, 0), in_w - 1)
        return src[y, x]

    sy = (oy + 0.5) * in_h / out_h - 0.5
    sx = (ox + 0.5) * in_w / out_w - 0.5
    y0 = int(math.floor(sy))
    x0 = int(math.floor(sx))
    fy = sy - y0
    fx = sx - x0
    top = pixel(y0, x0) * (1.0 - fx) + pixel(y0, x0 + 1) * fx
    bottom = pixel(y0 + 1, x0) * (1.0 - fx) + pixel(y0 + 1, x0 + 1) * fx
    dst[oy, ox] = top * (1.0 - fy) + bottom * fy


def resize(img, shape):
    out = np.zeros(shape, dtype=np.float64)
    grid = ((shape[0] + 15) // 16, (shape[1] + 15) // 16)
    resize_bilinear[grid, (16, 16)](img, out)
    return out


if __name__ == "__main__":
    img = np.arange(16, dtype=np.float64).reshape(4, 4)
    print(resize(img, (7, 9)))
