"""Leaderboard for a scoring run: entries ranked by score, ties and reverse order as Numba sorts them."""
import numpy as np
from numba import njit

TOP = 5


@njit
def score_of(entry):
    return entry[1]


@njit
def penalised(entry):
    return entry[1] - 0.5 * entry[2]


@njit
def leaderboard(scores, penalties):
    entries = [(i, scores[i], penalties[i]) for i in range(scores.shape[0])]
    by_score = sorted(entries, key=score_of, reverse=True)
    by_penalty = sorted(entries, key=penalised, reverse=True)
    fewest = sorted(entries, key=lambda e: (e[2], e[0]))
    top = np.empty(TOP, dtype=np.int64)
    for k in range(TOP):
        top[k] = by_score[k][0]
    ids = [e[0] for e in by_penalty]
    ids.sort(key=lambda i: i % 7, reverse=True)
    return top, by_penalty[0][0], fewest[0][0], fewest[-1][0], ids[0], ids[-1]
