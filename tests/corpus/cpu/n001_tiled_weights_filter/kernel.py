# A tiled weighting filter as image code writes it: a separable taper (np.outer of a Hann
# window) repeated over the image in tiles (Numba has no np.tile, so the tiles are joined with
# np.concatenate), the weighted image smoothed along rows, and along columns by running the
# same row pass over the swapped axes, then rounded to 8-bit levels and to 3 decimals.
import numpy as np
from numba import njit

TILE = 4
LEVELS = 255.0


@njit
def hann(n):
    w = np.empty(n)
    for k in range(n):
        w[k] = 0.5 - 0.5 * np.cos(2.0 * np.pi * (k + 0.5) / n)
    return w


@njit
def tiled_weights(rows, cols):
    taper = hann(TILE)
    block = np.outer(taper, taper)
    row = block
    for _ in range(cols // TILE - 1):
        row = np.concatenate((row, block), axis=1)
    grid = row
    for _ in range(rows // TILE - 1):
        grid = np.concatenate((grid, row), axis=0)
    return grid


@njit
def smooth_rows(image, out):
    rows, cols = image.shape
    for i in range(rows):
        for j in range(cols):
            left = image[i, j - 1] if j > 0 else image[i, j]
            right = image[i, j + 1] if j < cols - 1 else image[i, j]
            out[i, j] = 0.25 * left + 0.5 * image[i, j] + 0.25 * right


@njit
def filter_image(image):
    weights = tiled_weights(image.shape[0], image.shape[1])
    weighted = image * weights
    along_rows = np.empty_like(weighted)
    smooth_rows(weighted, along_rows)
    both = np.empty_like(weighted)
    smooth_rows(np.swapaxes(along_rows, 0, 1), np.swapaxes(both, 0, 1))
    levels = np.round(both * LEVELS).astype(np.uint8)
    report = np.round(both, 3)
    return weights, both, levels, report, np.round(both.sum(), 2)
