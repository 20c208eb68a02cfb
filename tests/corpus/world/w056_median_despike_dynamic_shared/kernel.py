"""Despiking a sensor trace with a running median (Hampel-style filter).

Each block stages its segment plus a RADIUS-sample apron in dynamically
sized shared memory (the size depends on the launch's block size), then
each thread sorts its window in a local array to get the median and the
median absolute deviation, and replaces outliers by the median.
"""
import numpy as np
from numba import cuda, float32

RADIUS = 4
WINDOW = 2 * RADIUS + 1
N_SIGMA = 3.0
MAD_TO_SIGMA = 1.4826


@cuda.jit(device=True)
def insertion_sort(v, n):
    for i in range(1, n):
        key = v[i]
        j = i - 1
        while j >= 0 and v[j] > key:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = key


@cuda.jit
def hampel(x, y, flagged):
    seg = cuda.shared.array(0, dtype=float32)
    t = cuda.threadIdx.x
    bs = cuda.blockDim.x
    base = cuda.blockIdx.x * bs
    n = x.shape[0]

    # stage [base - RADIUS, base + bs + RADIUS), clamping at the ends
    for k in range(t, bs + 2 * RADIUS, bs):
        src = min(max(base + k - RADIUS, 0), n - 1)
        seg[k] = x[src]
    cuda.syncthreads()

    i = base + t
    if i >= n:
        return
    w = cuda.local.array(WINDOW, float32)
    for k in range(WINDOW):
        w[k] = seg[t + k]
    insertion_sort(w, WINDOW)
    med = w[RADIUS]
    for k in range(WINDOW):
        w[k] = abs(seg[t + k] - med)
    insertion_sort(w, WINDOW)
    mad = MAD_TO_SIGMA * w[RADIUS]
    if abs(x[i] - med) > N_SIGMA * mad:
        y[i] = med
        cuda.atomic.add(flagged, 0, 1)
    else:
        y[i] = x[i]


def despike(x, threads=64):
    y = np.empty_like(x)
    flagged = np.zeros(1, np.int32)
    smem = (threads + 2 * RADIUS) * x.dtype.itemsize
    hampel[(x.size + threads - 1) // threads, threads, 0, smem](x, y, flagged)
    return y, int(flagged[0])


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    sig = np.sin(np.linspace(0, 20, 500)).astype(np.float32)
    sig[rng.integers(0, 500, 15)] += 5.0
    print(despike(sig)[1])
