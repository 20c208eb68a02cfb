"""Connected-component labelling of a binary mask by label propagation.

A segmentation post-processing step: every foreground pixel starts with its
own linear index as label; the block repeatedly takes the minimum label over
its 8-neighbourhood until nothing changes (a shared flag, OR-voted with
syncthreads_or).  One block owns the whole (small) tile so no global
synchronisation is needed.  Background pixels keep label -1.
"""
import numpy as np
from numba import cuda, int32

BACKGROUND = -1
CONNECTIVITY_8 = True


@cuda.jit(device=True)
def min_neighbour(labels, r, c, rows, cols):
    best = labels[r, c]
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if not CONNECTIVITY_8 and dr != 0 and dc != 0:
                continue
            rr = r + dr
            cc = c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                v = labels[rr, cc]
                if v != BACKGROUND and v < best:
                    best = v
    return best


@cuda.jit
def label_components(mask, labels, sweeps):
    rows, cols = mask.shape
    t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    n_threads = cuda.blockDim.x * cuda.blockDim.y
    for p in range(t, rows * cols, n_threads):
        r = p // cols
        c = p % cols
        labels[r, c] = p if mask[r, c] else BACKGROUND
    cuda.syncthreads()

    n = 0
    changed = 1
    while changed:
        local_change = 0
        for p in range(t, rows * cols, n_threads):
            r = p // cols
            c = p % cols
            if labels[r, c] != BACKGROUND:
                m = min_neighbour(labels, r, c, rows, cols)
                if m < labels[r, c]:
                    labels[r, c] = m
                    local_change = 1
        n += 1
        changed = cuda.syncthreads_or(local_change)
    if t == 0:
        sweeps[0] = n


if __name__ == "__main__":
    m = np.zeros((12, 12), np.uint8)
    m[1:4, 1:4] = 1
    m[6:10, 5] = 1
    m[10, 6:11] = 1
    lab = np.zeros(m.shape, np.int32)
    sw = np.zeros(1, np.int32)
    label_components[1, (16, 16)](m, lab, sw)
    print(np.unique(lab), sw)
