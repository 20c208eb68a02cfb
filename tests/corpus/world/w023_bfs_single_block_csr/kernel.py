"""Breadth-first search levels on a CSR graph, in one thread block.

Small graphs (a few thousand vertices) are cheaper to search in a single
block that loops over levels with a shared "changed" flag than with one
launch per level.  Vertices are visited in a block-stride loop; the parent of
each vertex is the smallest-numbered vertex of the previous level, which
keeps the result independent of thread timing.
"""
import numpy as np
from numba import cuda, int32

UNVISITED = -1
BLOCK = 128


@cuda.jit
def bfs_levels(row_ptr, col_idx, source, level, parent):
    changed = cuda.shared.array(1, dtype=int32)
    tid = cuda.threadIdx.x
    n = level.shape[0]
    no_parent = n            # above every vertex number, so atomic.min can claim

    for v in range(tid, n, cuda.blockDim.x):
        level[v] = UNVISITED
        parent[v] = no_parent
    cuda.syncthreads()
    if tid == 0:
        level[source] = 0
        parent[source] = source
    cuda.syncthreads()

    depth = 0
    while True:
        if tid == 0:
            changed[0] = 0
        cuda.syncthreads()
        for u in range(tid, n, cuda.blockDim.x):
            if level[u] == depth:
                for e in range(row_ptr[u], row_ptr[u + 1]):
                    v = col_idx[e]
                    if level[v] == UNVISITED:
                        # claim v for the next level; the smallest parent wins
                        cuda.atomic.min(parent, v, u)
                        cuda.atomic.max(changed, 0, 1)
        cuda.syncthreads()
        # a vertex whose parent was set this round belongs to the next level
        for v in range(tid, n, cuda.blockDim.x):
            if level[v] == UNVISITED and parent[v] != no_parent:
                level[v] = depth + 1
        cuda.syncthreads()
        done = changed[0] == 0
        cuda.syncthreads()   # everyone has read the flag before it is reset
        if done:
            break
        depth += 1

    for v in range(tid, n, cuda.blockDim.x):
        if parent[v] == no_parent:
            parent[v] = UNVISITED


def to_csr(n, edges):
    edges = sorted(set(edges) | {(b, a) for a, b in edges})
    row_ptr = np.zeros(n + 1, dtype=np.int32)
    for a, _ in edges:
        row_ptr[a + 1] += 1
    row_ptr = np.cumsum(row_ptr).astype(np.int32)
    col_idx = np.array([b for _, b in edges], dtype=np.int32)
    return row_ptr, col_idx


if __name__ == "__main__":
    rp, ci = to_csr(6, [(0, 1), (1, 2), (0, 3), (3, 4), (4, 5)])
    lv = np.zeros(6, dtype=np.int32)
    par = np.zeros(6, dtype=np.int32)
    bfs_levels[1, BLOCK](rp, ci, 0, lv, par)
    print(lv, par)
