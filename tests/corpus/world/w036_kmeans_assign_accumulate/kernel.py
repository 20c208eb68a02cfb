"""One Lloyd iteration of k-means on the GPU: assignment and accumulation.

The centroids are few, so each block copies them into shared memory once.
Every point finds its nearest centroid and adds itself to that cluster's
running sums with atomics; the host divides to get the new centroids.
"""
import numpy as np
from numba import cuda, float64, int32

MAX_K = 16
MAX_DIM = 8
THREADS = 64


@cuda.jit(device=True)
def sq_dist(points, i, cents, c, dim):
    d = 0.0
    for k in range(dim):
        t = points[i, k] - cents[c, k]
        d += t * t
    return d


@cuda.jit
def assign_accumulate(points, centroids, labels, sums, counts, inertia):
    s_cent = cuda.shared.array((MAX_K, MAX_DIM), dtype=float64)
    n_k, dim = centroids.shape
    t = cuda.threadIdx.x
    for idx in range(t, n_k * dim, cuda.blockDim.x):
        s_cent[idx // dim, idx % dim] = centroids[idx // dim, idx % dim]
    cuda.syncthreads()

    i = cuda.grid(1)
    if i >= points.shape[0]:
        return
    best = 0
    best_d = sq_dist(points, i, s_cent, 0, dim)
    for c in range(1, n_k):
        d = sq_dist(points, i, s_cent, c, dim)
        if d < best_d:
            best, best_d = c, d
    labels[i] = best
    for k in range(dim):
        cuda.atomic.add(sums, (best, k), points[i, k])
    cuda.atomic.add(counts, best, 1)
    cuda.atomic.add(inertia, 0, best_d)


def lloyd_step(points, centroids):
    n_k, dim = centroids.shape
    assert n_k <= MAX_K and dim <= MAX_DIM
    labels = np.empty(points.shape[0], dtype=np.int32)
    sums = np.zeros_like(centroids)
    counts = np.zeros(n_k, dtype=np.int32)
    inertia = np.zeros(1)
    blocks = (points.shape[0] + THREADS - 1) // THREADS
    assign_accumulate[blocks, THREADS](points, centroids, labels, sums, counts, inertia)
    new = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], centroids)
    return new, labels, inertia[0]


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    pts = np.concatenate([rng.normal(m, 0.3, (100, 2)) for m in (0, 3, 6)])
    c = pts[rng.choice(len(pts), 3, replace=False)]
    for _ in range(5):
        c, lab, j = lloyd_step(pts, c)
    print(c, j)
