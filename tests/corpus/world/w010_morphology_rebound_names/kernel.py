"""Binary morphology (erosion with a square structuring element) on the GPU.

Functions are written undecorated and rebound to their jitted selves after
definition, a style kept from code that also runs them in pure Python.
"""
import numpy as np

try:
    try:
        from numba import cuda, uint8
    except ImportError:
        from numba.cuda import cuda, uint8  # never taken when numba is installed
    HAVE_NUMBA = True
except ImportError:
    HAVE_NUMBA = False

RADIUS = 1
OUTSIDE = 0


def pixel(img, y, x):
    if y < 0 or x < 0 or y >= img.shape[0] or x >= img.shape[1]:
        return OUTSIDE
    return img[y, x]


def erode(img, out):
    y, x = cuda.grid(2)
    if y >= img.shape[0] or x >= img.shape[1]:
        return
    keep = uint8(1)
    for dy in range(-RADIUS, RADIUS + 1):
        for dx in range(-RADIUS, RADIUS + 1):
            if pixel(img, y + dy, x + dx) == 0:
                keep = uint8(0)
    out[y, x] = keep


if HAVE_NUMBA and not OUTSIDE:
    pixel = cuda.jit(pixel, device=True)
    erode = cuda.jit(erode)


if __name__ == "__main__":
    rng = np.random.default_rng(8)
    mask = (rng.random((40, 36)) < 0.8).astype(np.uint8)
    eroded = np.zeros_like(mask)
    erode[(3, 3), (16, 16)](mask, eroded)
    print(mask.sum(), eroded.sum())
