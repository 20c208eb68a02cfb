"""One pull-style PageRank iteration over the transposed graph (CSC).

rank_new[v] = (1 - d) / n + d * (sum of rank[u] / outdeg[u] over in-edges u->v
               + dangling mass / n)

The dangling mass (rank held by vertices without out-edges) is summed by a
separate kernel with a warp-free shared-memory reduction and atomics; the
update kernel then reads it.  The host loop alternates the two.
"""
import numpy as np
import numba
from numba import cuda, float64

DAMPING = 0.85
TOL = 1e-10
THREADS = 64


@cuda.jit(device=True)
def contribution(rank, out_degree, u):
    d = out_degree[u]
    return rank[u] / d if d > 0 else 0.0


@cuda.jit
def dangling_mass(rank, out_degree, mass):
    buf = cuda.shared.array(THREADS, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = rank[i] if i < rank.size and out_degree[i] == 0 else 0.0
    cuda.syncthreads()
    s = THREADS // 2
    while s:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s >>= 1
    if tid == 0:
        cuda.atomic.add(mass, 0, buf[0])


@cuda.jit
def pagerank_step(in_ptr, in_src, out_degree, rank, dangling, new_rank, delta):
    v = cuda.grid(1)
    n = rank.size
    if v >= n:
        return
    acc = 0.0
    for e in range(in_ptr[v], in_ptr[v + 1]):
        acc += contribution(rank, out_degree, in_src[e])
    value = (1.0 - DAMPING) / n + DAMPING * (acc + dangling[0] / n)
    new_rank[v] = value
    delta[v] = abs(value - rank[v])


@numba.njit
def transpose_csr(n, src, dst):
    counts = np.zeros(n + 1, dtype=np.int32)
    for k in range(dst.size):
        counts[dst[k] + 1] += 1
    for v in range(n):
        counts[v + 1] += counts[v]
    order = np.argsort(dst, kind="mergesort")
    return counts, src[order].astype(np.int32)


def pagerank(n, src, dst, iters=50):
    in_ptr, in_src = transpose_csr(n, src, dst)
    outdeg = np.bincount(src, minlength=n).astype(np.int32)
    rank = np.full(n, 1.0 / n)
    blocks = (n + THREADS - 1) // THREADS
    for _ in range(iters):
        mass = np.zeros(1)
        dangling_mass[blocks, THREADS](rank, outdeg, mass)
        new = np.empty_like(rank)
        delta = np.empty_like(rank)
        pagerank_step[blocks, THREADS](in_ptr, in_src, outdeg, rank, mass, new, delta)
        rank = new
        if delta.sum() < TOL:
            break
    return rank


if __name__ == "__main__":
    r = pagerank(4, np.array([0, 0, 1, 2]), np.array([1, 2, 2, 0]))
    print(r, r.sum())
