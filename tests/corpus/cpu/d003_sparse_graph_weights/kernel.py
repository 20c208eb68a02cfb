"""A weighted graph kept as a dict of neighbour-weight rows, as a small network script builds it."""
import numpy as np
from numba import njit

N_NODES = 40


@njit
def build_adjacency(src, dst, weight):
    adj = {}
    for e in range(src.shape[0]):
        s = src[e]
        if s not in adj:
            adj[s] = np.zeros(N_NODES)
        adj[s][dst[e]] += weight[e]
    return adj


@njit
def weighted_degrees(adj):
    out = np.zeros(N_NODES)
    for node, row in adj.items():
        out[node] = row.sum()
    return out


@njit
def two_hop_mass(adj, start):
    # mass that reaches each node in two steps from `start`
    reach = np.zeros(N_NODES)
    first = adj.get(start, np.zeros(N_NODES))
    for mid in range(N_NODES):
        if first[mid] > 0 and mid in adj:
            reach += first[mid] * adj[mid]
    return reach


@njit
def graph_report(src, dst, weight, start):
    adj = build_adjacency(src, dst, weight)
    degrees = weighted_degrees(adj)
    reach = two_hop_mass(adj, start)
    # prune the lightest sources
    light = np.argsort(degrees)[:5]
    for node in light:
        if node in adj:
            adj.pop(node)
    kept = np.empty(len(adj), dtype=np.int64)
    i = 0
    for node in adj.keys():
        kept[i] = node
        i += 1
    return degrees, reach, kept
