"""GC content of fixed-width windows over encoded DNA reads.

Bases are encoded A=0, C=1, G=2, T=3 (4 = N). The kernel is made with
`cuda.jit(f)` so that the same function can be checked in pure Python.
"""
import numpy as np
from numba import cuda

WINDOW = 8
N_CODE = 4


def is_gc(base):
    return base == 1 or base == 2


def _window_gc(reads, gc, masked):
    r, w = cuda.grid(2)
    if r >= reads.shape[0] or w >= gc.shape[1]:
        return
    count = 0
    unknown = 0
    for k in range(WINDOW):
        b = reads[r, w * WINDOW + k]
        if b == N_CODE:
            unknown += 1
        elif gc_base(b):
            count += 1
    gc[r, w] = count / (WINDOW - unknown) if unknown < WINDOW else -1.0
    if unknown > 0:
        cuda.atomic.add(masked, r, unknown)


gc_base = cuda.jit(is_gc, device=True)
window_gc = cuda.jit(_window_gc)


if __name__ == "__main__":
    rng = np.random.default_rng(2)
    reads = rng.integers(0, 5, size=(20, 64)).astype(np.int8)
    gc = np.zeros((20, 64 // WINDOW))
    masked = np.zeros(20, dtype=np.int64)
    window_gc[(1, 1), (32, 8)](reads, gc, masked)
    print(gc[0], masked[:5])
