"""Viterbi decoding of a two-state HMM (CpG island vs. background), batched.

Each thread decodes one DNA window: log-space dynamic programming over the
sequence with back-pointers kept in a per-thread slice of a global scratch
array, then a backtrace that writes the state path.
"""
import math

import numpy as np
from numba import cuda, float64, int8

N_STATES = 2
ISLAND = 0
BACKGROUND = 1

# emission probabilities for A, C, G, T
EMIT = ((0.15, 0.35, 0.35, 0.15),
        (0.30, 0.20, 0.20, 0.30))
STAY = 0.98
NEG_BIG = -1.0e300


@cuda.jit(device=True)
def log_emit(state, base):
    return math.log(EMIT[state][base])


@cuda.jit(device=True)
def log_trans(a, b):
    return math.log(STAY) if a == b else math.log(1.0 - STAY)


@cuda.jit
def viterbi(seqs, backptr, path, score):
    w = cuda.grid(1)
    if w >= seqs.shape[0]:
        return
    n = seqs.shape[1]
    v = cuda.local.array(N_STATES, float64)
    nv = cuda.local.array(N_STATES, float64)
    for s in range(N_STATES):
        v[s] = math.log(0.5) + log_emit(s, seqs[w, 0])

    for t in range(1, n):
        for s in range(N_STATES):
            best = NEG_BIG
            arg = 0
            for p in range(N_STATES):
                cand = v[p] + log_trans(p, s)
                if cand > best:
                    best = cand
                    arg = p
            nv[s] = best + log_emit(s, seqs[w, t])
            backptr[w, t, s] = arg
        for s in range(N_STATES):
            v[s] = nv[s]

    last = ISLAND if v[ISLAND] >= v[BACKGROUND] else BACKGROUND
    score[w] = v[last]
    path[w, n - 1] = last
    for t in range(n - 1, 0, -1):
        last = backptr[w, t, last]
        path[w, t - 1] = last


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    seqs = rng.integers(0, 4, (4, 200)).astype(np.int8)
    bp = np.zeros((4, 200, N_STATES), np.int8)
    path = np.zeros((4, 200), np.int8)
    sc = np.zeros(4)
    viterbi[1, 32](seqs, bp, path, sc)
    print(path.sum(axis=1), sc)
