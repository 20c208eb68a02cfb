"""Label the connected bright regions of an image with a stack-based flood fill, the way a
quick segmentation script does it: a Python list as the stack, (row, col) tuples on it."""
import numpy as np
from numba import njit

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@njit
def flood_fill(mask, labels, seed_r, seed_c, label):
    stack = [(seed_r, seed_c)]
    size = 0
    while len(stack) > 0:
        r, c = stack.pop()
        if labels[r, c] != 0:
            continue
        labels[r, c] = label
        size += 1
        for dr, dc in NEIGHBOURS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < mask.shape[0] and 0 <= cc < mask.shape[1] and mask[rr, cc] and labels[rr, cc] == 0:
                stack.append((rr, cc))
    return size


@njit
def label_regions(image, threshold):
    mask = image > threshold
    labels = np.zeros(image.shape, dtype=np.int64)
    sizes = [0] * 0
    seeds = [(0, 0)] * 0
    for r in range(image.shape[0]):
        for c in range(image.shape[1]):
            if mask[r, c] and labels[r, c] == 0:
                sizes.append(flood_fill(mask, labels, r, c, len(sizes) + 1))
                seeds.append((r, c))
    big = [0] * 0  # the labels of regions of three pixels or more
    for k, size in enumerate(sizes):
        if size >= 3:
            big.append(k + 1)
    first_big = seeds[big[0] - 1] if len(big) > 0 else (-1, -1)
    return labels, np.array(sizes), len(big), np.array(seeds), first_big[0], first_big[1]
