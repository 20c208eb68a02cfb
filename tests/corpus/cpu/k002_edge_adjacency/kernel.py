"""Build a ragged adjacency list from an edge list and walk it breadth-first: degrees,
hop distances from a source, and the neighbours each node sees, as a graph script would."""
import numpy as np
from numba import njit


@njit
def build_adjacency(sources, targets, n_nodes):
    adjacency = [[0] * 0 for _ in range(n_nodes)]
    for e in range(sources.shape[0]):
        a, b = sources[e], targets[e]
        if a == b or b in adjacency[a]:
            continue  # no self loops, no repeated edges
        adjacency[a].append(b)
        adjacency[b].append(a)
    for row in adjacency:
        row.sort()
    return adjacency


@njit
def hop_distances(adjacency, source):
    n = len(adjacency)
    distance = np.full(n, -1, dtype=np.int64)
    distance[source] = 0
    frontier = [source]
    while frontier:
        following = []
        for node in frontier:
            for other in adjacency[node]:
                if distance[other] < 0:
                    distance[other] = distance[node] + 1
                    following.append(other)
        frontier = following
    return distance


@njit
def graph_report(sources, targets, n_nodes):
    adjacency = build_adjacency(sources, targets, n_nodes)
    degrees = np.array([len(row) for row in adjacency])
    distance = hop_distances(adjacency, 0)
    # the smallest neighbour of each node with any, and the busiest node's neighbour list
    first = np.array([row[0] if len(row) > 0 else -1 for row in adjacency])
    busiest = int(np.argmax(degrees))
    busiest_row = adjacency[busiest].copy()
    busiest_row.reverse()
    return degrees, distance, first, np.array(busiest_row), degrees.sum() // 2
