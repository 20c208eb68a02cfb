"""Pairwise alignment of DNA read fragments: Needleman-Wunsch (global) and Smith-Waterman
(local) with a substitution matrix, traceback to an aligned pair of code arrays."""
import numpy as np
from numba import njit

GAP = -4
# A C G T, transitions (A<->G, C<->T) cheaper than transversions
SUBST = np.array([[5, -3, -1, -3],
                  [-3, 5, -3, -1],
                  [-1, -3, 5, -3],
                  [-3, -1, -3, 5]], dtype=np.int64)
DIAG, UP, LEFT, STOP = 0, 1, 2, 3
GAP_CODE = 4


@njit
def score_pair(a, b):
    return SUBST[a, b]


@njit
def fill_matrix(s, t, local):
    n, m = len(s), len(t)
    H = np.zeros((n + 1, m + 1), dtype=np.int64)
    trace = np.full((n + 1, m + 1), STOP, dtype=np.int8)
    if not local:
        for i in range(1, n + 1):
            H[i, 0] = i * GAP
            trace[i, 0] = UP
        for j in range(1, m + 1):
            H[0, j] = j * GAP
            trace[0, j] = LEFT
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            diag = H[i - 1, j - 1] + score_pair(s[i - 1], t[j - 1])
            up = H[i - 1, j] + GAP
            left = H[i, j - 1] + GAP
            best = max(diag, up, left)
            if local and best <= 0:
                H[i, j] = 0
                trace[i, j] = STOP
                continue
            H[i, j] = best
            if best == diag:
                trace[i, j] = DIAG
            elif best == up:
                trace[i, j] = UP
            else:
                trace[i, j] = LEFT
    return H, trace


@njit
def traceback(s, t, trace, i, j):
    top = []
    bottom = []
    while trace[i, j] != STOP:
        move = trace[i, j]
        if move == DIAG:
            i -= 1
            j -= 1
            top.append(s[i])
            bottom.append(t[j])
        elif move == UP:
            i -= 1
            top.append(s[i])
            bottom.append(GAP_CODE)
        else:
            j -= 1
            top.append(GAP_CODE)
            bottom.append(t[j])
    top.reverse()
    bottom.reverse()
    return np.array(top, dtype=np.uint8), np.array(bottom, dtype=np.uint8), i, j


@njit
def identity(top, bottom):
    same = 0
    for a, b in zip(top, bottom):
        if a == b and a != GAP_CODE:
            same += 1
    return same / max(len(top), 1)


@njit
def align(s, t, local=False):
    H, trace = fill_matrix(s, t, local)
    if local:
        flat = np.argmax(H)
        i, j = flat // H.shape[1], flat % H.shape[1]
    else:
        i, j = len(s), len(t)
    score = H[i, j]
    top, bottom, i0, j0 = traceback(s, t, trace, i, j)
    return score, top, bottom, (i0, i), (j0, j)


@njit
def alignment_report(reference, read):
    g_score, g_top, g_bottom, _, _ = align(reference, read)
    l_score, l_top, l_bottom, span_ref, span_read = align(reference, read, local=True)
    gaps = np.sum(g_top == GAP_CODE) + np.sum(g_bottom == GAP_CODE)
    return (g_score, g_top, g_bottom, identity(g_top, g_bottom), gaps,
            l_score, l_top, l_bottom, np.array(span_ref), np.array(span_read))
