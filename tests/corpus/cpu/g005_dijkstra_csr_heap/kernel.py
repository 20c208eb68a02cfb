"""Single-source shortest paths on a road-network-like graph: edge list -> CSR, Dijkstra with
a binary heap of (distance, node) tuples, path recovery, and a hop-count BFS for comparison."""
import heapq

import numpy as np
from numba import njit

INF = 1 << 60
UNREACHED = -1


@njit(cache=True)
def to_csr(n, src, dst, weight):
    order = np.argsort(src, kind="mergesort")
    targets = dst[order]
    costs = weight[order]
    indptr = np.searchsorted(src[order], np.arange(n + 1))
    return indptr, targets, costs


@njit(cache=True)
def dijkstra(indptr, targets, costs, source):
    n = indptr.shape[0] - 1
    dist = np.full(n, INF, np.int64)
    pred = np.full(n, UNREACHED, np.int64)
    dist[source] = 0
    heap = [(0, source)]
    settled = 0
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]: continue
        settled += 1
        for e in range(indptr[u], indptr[u + 1]):
            v = targets[e]
            nd = d + costs[e]
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = u
                heapq.heappush(heap, (nd, v))
    return dist, pred, settled


@njit
def recover_path(pred, target):
    path = [target]
    while pred[path[-1]] != UNREACHED:
        path.append(pred[path[-1]])
    path.reverse()
    return np.array(path)


@njit
def bfs_hops(indptr, targets, source):
    n = indptr.shape[0] - 1
    hops = np.full(n, -1, dtype=np.int64)
    hops[source] = 0
    queue = [source]
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for v in targets[indptr[u]:indptr[u + 1]]:
            if hops[v] < 0:
                hops[v] = hops[u] + 1
                queue.append(v)
    return hops


@njit
def shortest_path_report(n, src, dst, weight, source):
    indptr, targets, costs = to_csr(n, src, dst, weight)
    dist, pred, settled = dijkstra(indptr, targets, costs, source)
    hops = bfs_hops(indptr, targets, source)
    reachable = dist < INF
    far = np.argmax(np.where(reachable, dist, -1))
    path = recover_path(pred, far)
    # the path's weight, edge by edge, must equal the distance found
    total = 0
    for a, b in zip(path[:-1], path[1:]):
        best = INF
        for e in range(indptr[a], indptr[a + 1]):
            if targets[e] == b and costs[e] < best:
                best = costs[e]
        total += best
    return np.where(reachable, dist, -1), hops, settled, path, total == dist[far], reachable.sum()
