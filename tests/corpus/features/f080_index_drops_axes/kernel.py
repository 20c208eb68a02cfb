"""Pixels and planes as views: integer indices that drop several axes of a C array.

An image stored height x width x channels is read a pixel at a time (`img[y, x]`, a C-contiguous
vector of channels), and a stack of volumes a plane at a time (`vol[t, z]`), the shape image and
physics codes index in.
"""
import numpy as np
from numba import cuda

LUMA = (0.299, 0.587, 0.114)


@cuda.jit(device=True)
def luminance(pixel):
    return LUMA[0] * pixel[0] + LUMA[1] * pixel[1] + LUMA[2] * pixel[2]


@cuda.jit
def grey_and_planes(img, vol, grey, corners):
    y, x = cuda.grid(2)
    if y < img.shape[0] and x < img.shape[1]:
        pixel = img[y, x]
        grey[y, x] = luminance(pixel)
    if y < vol.shape[0] and x < vol.shape[1]:
        plane = vol[y, x]
        last = plane.shape[0] - 1
        corners[y, x] = plane[0, 0] + plane[last, plane.shape[1] - 1] - plane[-1, 0]
        # A fixed middle axis: a strided (any-layout) view.
        column = vol[y, :, 1, x % vol.shape[3]]
        corners[y, x] += column[column.shape[0] - 1]


if __name__ == "__main__":
    img = np.random.default_rng(1).random((6, 7, 3)).astype(np.float32)
    vol = np.arange(4 * 5 * 3 * 2, dtype=np.float64).reshape(4, 5, 3, 2)
    grey = np.zeros((6, 7), dtype=np.float32)
    corners = np.zeros((4, 5))
    grey_and_planes[(1, 1), (8, 8)](img, vol, grey, corners)
    print(grey.sum(), corners.sum())
