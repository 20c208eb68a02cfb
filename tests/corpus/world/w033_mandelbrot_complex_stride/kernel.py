"""Escape-time fractal renderer (Mandelbrot / Julia) with complex arithmetic.

Uses a 2-D grid-stride loop so that any launch covers the whole image, and
a smooth iteration count for colouring.  The palette lookup stays on the host.
"""
import cmath
import math

import numpy as np
from numba import cuda, uint16

MAX_ITER = 200
ESCAPE_RADIUS = 4.0
LOG2 = math.log(2.0)


@cuda.jit(device=True)
def escape_time(c, z, max_iter):
    for n in range(max_iter):
        z = z * z + c
        if abs(z) > ESCAPE_RADIUS:
            # smooth count: n + 1 - log2(log|z|)
            return n + 1 - math.log(math.log(abs(z))) / LOG2
    return float(max_iter)


@cuda.jit
def render(x0, x1, y0, y1, c_re, c_im, use_julia, image, raw):
    height, width = image.shape
    start_y, start_x = cuda.grid(2)
    stride_y, stride_x = cuda.gridsize(2)
    dx = (x1 - x0) / width
    dy = (y1 - y0) / height
    julia_c = complex(c_re, c_im)
    for py in range(start_y, height, stride_y):
        for px in range(start_x, width, stride_x):
            p = complex(x0 + px * dx, y0 + py * dy)
            if use_julia:
                t = escape_time(julia_c, p, MAX_ITER)
            else:
                t = escape_time(p, 0j, MAX_ITER)
            raw[py, px] = t
            image[py, px] = uint16(min(t * 300.0, 65535.0))


def palette(image):
    return (np.sqrt(image / 65535.0) * 255).astype(np.uint8)


if __name__ == "__main__":
    img = np.zeros((120, 160), dtype=np.uint16)
    raw = np.zeros((120, 160))
    render[(4, 4), (8, 8)](-2.0, 1.0, -1.2, 1.2, -0.8, 0.156, False, img, raw)
    print(palette(img).mean(), cmath.phase(1j))
