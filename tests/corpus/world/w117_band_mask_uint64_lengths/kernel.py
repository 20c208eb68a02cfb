"""Banded alignment masks for a batch of variable-length sequences.

Sequence lengths come from an index file stored as uint64.  For each
sequence (one thread) the kernel marks the cells (i, j) of its DP matrix that
lie within BAND of the diagonal and counts them; loops run over
range(0, length), as the NumPy prototype wrote them.
"""
import numpy as np
from numba import cuda

BAND = 2


@cuda.jit
def band_masks(lengths, mask, cells):
    s = cuda.grid(1)
    if s >= lengths.shape[0]:
        return
    n = lengths[s]
    count = 0
    for i in range(0, n):
        for j in range(0, n):
            if abs(i - j) <= BAND:
                mask[s, i, j] = 1
                count += 1
    cells[s] = count


if __name__ == "__main__":
    lens = np.array([5, 8, 3], dtype=np.uint64)
    m = np.zeros((3, 8, 8), np.uint8)
    c = np.zeros(3, np.int64)
    band_masks[1, 32](lens, m, c)
    print(c)
