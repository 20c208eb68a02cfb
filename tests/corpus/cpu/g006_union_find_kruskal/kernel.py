"""Disjoint sets for clustering: union-find with path compression and union by size,
Kruskal's minimum spanning forest, and single-linkage clusters cut at a threshold."""
import numpy as np
import numba as nb


@nb.njit
def make_sets(n):
    parent = np.arange(n)
    size = np.ones(n, dtype=np.int64)
    return parent, size


@nb.njit
def find(parent, x):
    # recursive, compressing the path on the way back
    if parent[x] != x:
        parent[x] = find(parent, parent[x])
    return parent[x]


@nb.njit
def find_halving(parent, x):
    while x != parent[x]:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@nb.njit
def union(parent, size, a, b):
    ra = find(parent, a)
    rb = find(parent, b)
    if ra == rb:
        return False
    if size[ra] < size[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    size[ra] += size[rb]
    return True


@nb.njit
def pairwise_edges(points):
    n = points.shape[0]
    m = n * (n - 1) // 2
    u = np.empty(m, dtype=np.int64)
    v = np.empty(m, dtype=np.int64)
    w = np.empty(m)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            u[k], v[k] = i, j
            w[k] = np.sqrt(((points[i] - points[j]) ** 2).sum())
            k += 1
    return u, v, w


@nb.njit
def kruskal(n, u, v, w):
    parent, size = make_sets(n)
    tree = []
    for e in np.argsort(w):
        if union(parent, size, u[e], v[e]):
            tree.append((u[e], v[e], w[e]))
            if len(tree) == n - 1:
                break
    return tree


@nb.njit
def label_components(parent):
    n = parent.shape[0]
    labels = -np.ones(n, dtype=np.int64)
    roots = {}
    next_label = 0
    for x in range(n):
        r = find_halving(parent, x)
        if r not in roots:
            roots[r] = next_label
            next_label += 1
        labels[x] = roots[r]
    return labels


@nb.njit
def clustering_report(points, cut):
    n = points.shape[0]
    u, v, w = pairwise_edges(points)
    tree = kruskal(n, u, v, w)
    tree_weight = 0.0
    for a, b, length in tree:
        tree_weight += length
    # single linkage: join along tree edges shorter than the cut
    parent, size = make_sets(n)
    for a, b, length in tree:
        if length < cut:
            union(parent, size, a, b)
    labels = label_components(parent)
    n_clusters = labels.max() + 1
    counts = np.bincount(labels)
    longest = max([t[2] for t in tree])
    return tree_weight, len(tree), labels, n_clusters, np.sort(counts)[::-1], longest
