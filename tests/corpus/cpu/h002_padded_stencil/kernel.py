# Image filtering as image code writes it: a reflect-padded copy of the image built from
# flipped edge strips (np.flipud / np.fliplr views, np.concatenate along both axes), a box
# blur over the padded image, a periodic 1-d smoothing with np.roll, a mask filled with
# a.fill, a diagonal weight matrix from np.eye with an offset, and views flipped back.
import numpy as np
from numba import njit


@njit
def reflect_pad(image, width):
    rows, cols = image.shape
    top = np.flipud(image[:width, :])
    bottom = np.flipud(image[rows - width:, :])
    tall = np.concatenate((top, image, bottom), axis=0)
    left = np.fliplr(tall[:, :width])
    right = np.fliplr(tall[:, cols - width:])
    return np.concatenate((left, tall, right), axis=1)


@njit
def box_blur(image, width):
    padded = reflect_pad(image, width)
    rows, cols = image.shape
    out = np.empty_like(image)
    size = (2 * width + 1) ** 2
    for i in range(rows):
        for j in range(cols):
            acc = 0.0
            for di in range(2 * width + 1):
                for dj in range(2 * width + 1):
                    acc += padded[i + di, j + dj]
            out[i, j] = acc / size
    return padded, out


@njit
def periodic_smooth(signal):
    before = np.roll(signal, 1)
    after = np.roll(signal, -1)
    out = np.empty_like(signal)
    for i in range(signal.shape[0]):
        out[i] = 0.25 * before[i] + 0.5 * signal[i] + 0.25 * after[i]
    return out


@njit
def filter_image(image, width):
    padded, blurred = box_blur(image, width)
    row_means = np.empty(image.shape[0])
    for i in range(image.shape[0]):
        total = 0.0
        for j in range(image.shape[1]):
            total += blurred[i, j]
        row_means[i] = total / image.shape[1]
    smooth = periodic_smooth(row_means)
    mask = np.empty(image.shape, dtype=np.int8)
    mask.fill(0)
    for i in range(image.shape[0]):
        for j in range(image.shape[1]):
            if blurred[i, j] > smooth[i]:
                mask[i, j] = 1
    band = np.eye(image.shape[0], image.shape[1], 1)
    lower = np.eye(image.shape[0], k=-1, dtype=np.int32)
    mirrored = np.flip(blurred)
    shifted = np.roll(mask, 3)
    return padded, blurred, smooth, mask, band, lower, mirrored, shifted
