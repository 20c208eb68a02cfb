"""A finite-difference stencil written with helper closures, as image and PDE kernels often are:
inner functions of the kernel read its locals (the thread's coordinates, the grid size, the
coefficients), call each other, take default arguments, and a lambda names a small formula.
Numba inlines each call, reading the variables' values at the call."""
import math

import numpy as np
from numba import cuda

ALPHA = 0.25


@cuda.jit(device=True)
def gaussian_blur_at(img, y, x, sigma):
    h = img.shape[0]
    w = img.shape[1]

    def weight(dy, dx):
        return math.exp(-(dy * dy + dx * dx) / (2.0 * sigma * sigma))

    def pixel(yy, xx):
        yy = min(max(yy, 0), h - 1)
        xx = min(max(xx, 0), w - 1)
        return img[yy, xx]

    total = 0.0
    norm = 0.0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            c = weight(dy, dx)
            total += c * pixel(y + dy, x + dx)
            norm += c
    return total / norm


@cuda.jit
def diffuse(u, out, blurred, dt):
    y, x = cuda.grid(2)
    ny, nx = u.shape

    def inside(j, i):
        return 0 <= j < ny and 0 <= i < nx

    def at(j, i, fallback=0.0):
        if inside(j, i):
            return u[j, i]
        return fallback

    def laplacian():
        centre = u[y, x]
        return (at(y - 1, x, centre) + at(y + 1, x, centre) + at(y, x - 1, centre) +
                at(y, x + 1, centre) - 4.0 * centre)

    relax = lambda v, target: v + ALPHA * (target - v)

    if inside(y, x):
        step = dt * laplacian()
        out[y, x] = relax(u[y, x] + step, u[y, x])
        blurred[y, x] = gaussian_blur_at(u, y, x, 0.8) + at(y + 100, x)
