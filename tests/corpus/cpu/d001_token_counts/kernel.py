"""Token frequency table over a stream of integer token ids, as a text-mining script keeps it."""
import numpy as np
from numba import njit

MIN_COUNT = 3


@njit
def count_tokens(ids):
    counts = {}
    for t in ids:
        if t in counts:
            counts[t] += 1
        else:
            counts[t] = 1
    return counts


@njit
def first_seen_order(counts):
    order = np.empty(len(counts), dtype=np.int64)
    i = 0
    for token in counts:
        order[i] = token
        i += 1
    return order


@njit
def token_report(ids, stop_token):
    counts = count_tokens(ids)
    # drop the stop token, then the rare ones
    removed = counts.pop(stop_token, 0)
    rare = []
    for token, n in counts.items():
        if n < MIN_COUNT:
            rare.append(token)
    for token in rare:
        del counts[token]
    order = first_seen_order(counts)
    freq = np.empty(len(counts), dtype=np.float64)
    total = 0
    for v in counts.values():
        total += v
    for i in range(order.shape[0]):
        freq[i] = counts[order[i]] / total
    best = -1
    best_count = 0
    for token, n in counts.items():
        if n > best_count:
            best, best_count = token, n
    return order, freq, removed, len(rare), best, counts.get(best, -1)
