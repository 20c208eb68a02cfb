"""Primary-ray shading of a sphere field (a tiny ray caster).

The package falls back to NumPy when numba is missing; a few helpers are built
from plain functions with cuda.jit(device=True), and the shading formula is long
enough to be wrapped with backslashes.
"""
import math

import numpy as np

try:
    import numba
    from numba import cuda
except ModuleNotFoundError:
    numba = None
    cuda = None
    GPU = False
else:
    GPU = True
finally:
    EPS = 1e-9

LIGHT = (0.577, 0.577, -0.577)
AMBIENT = 0.1


def _dot3(ax, ay, az, bx, by, bz):
    return ax * bx + ay * by + az * bz


if GPU:
    dot3 = cuda.jit(device=True)(_dot3)

    @cuda.jit(device=True)
    def hit_distance(ox, oy, oz, dx, dy, dz, cx, cy, cz, r):
        lx = cx - ox
        ly = cy - oy
        lz = cz - oz
        tca = dot3(lx, ly, lz, dx, dy, dz)
        d2 = dot3(lx, ly, lz, lx, ly, lz) - tca * tca
        if d2 > r * r:
            return -1.0
        thc = math.sqrt(r * r - d2)
        t = tca - thc
        return t if t > EPS else \
            tca + thc

    @cuda.jit
    def shade(spheres, image):
        py, px = cuda.grid(2)
        h, w = image.shape
        if py >= h or px >= w:
            return
        dx = (px + 0.5) / w * 2.0 - 1.0
        dy = (py + 0.5) / h * 2.0 - 1.0
        dz = 1.0
        norm = math.sqrt(dot3(dx, dy, dz, dx, dy, dz))
        dx /= norm
        dy /= norm
        dz /= norm
        best = 1e30
        hit = -1
        for s in range(spheres.shape[0]):
            t = hit_distance(0.0, 0.0, 0.0, dx, dy, dz,
                             spheres[s, 0], spheres[s, 1], spheres[s, 2], spheres[s, 3])
            if 0.0 < t < best:
                best = t
                hit = s
        if hit < 0:
            image[py, px] = 0.0
            return
        nx = (dx * best - spheres[hit, 0]) / spheres[hit, 3]
        ny = (dy * best - spheres[hit, 1]) / spheres[hit, 3]
        nz = (dz * best - spheres[hit, 2]) / spheres[hit, 3]
        lambert = max(0.0, dot3(nx, ny, nz, LIGHT[0], LIGHT[1], LIGHT[2]))
        image[py, px] = AMBIENT + \
            (1.0 - AMBIENT) * lambert * \
            spheres[hit, 4]


if __name__ == "__main__":
    field = np.array([[0.0, 0.0, 5.0, 1.0, 0.9],
                      [1.5, 0.5, 7.0, 1.2, 0.6],
                      [-1.2, -0.8, 4.0, 0.5, 1.0]])
    img = np.zeros((24, 32))
    if GPU:
        shade[(3, 4), (8, 8)](field, img)
    print(img.max(), (img > 0).sum())
