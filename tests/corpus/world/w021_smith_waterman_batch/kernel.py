"""Batched Smith-Waterman local alignment scores (linear gap penalty).

Each thread aligns one query read (rows of `queries`, 2-bit coded bases,
padded with -1) against the same reference and reports the best local score
and where it ends.  A single DP row lives in thread-local memory.
"""
import numpy as np
from numba import cuda, int32, njit

MATCH = 3
MISMATCH = -2
GAP = -4
MAX_REF = 96          # longest reference the local row can hold
ROW_LEN = MAX_REF + 1   # a shape must be one constant: Numba does not fold MAX_REF + 1
PAD = -1

BASES = "ACGT"


def encode(seq, width):
    out = np.full(width, PAD, dtype=np.int8)
    for k, ch in enumerate(seq[:width]):
        out[k] = BASES.index(ch)
    return out


@njit(cache=False)
def read_length(codes):
    n = 0
    while n < codes.shape[0] and codes[n] != PAD:
        n += 1
    return n


@cuda.jit(device=True, inline=True)
def score(a, b):
    return MATCH if a == b else MISMATCH


@cuda.jit
def sw_scores(queries, reference, best, best_end):
    q = cuda.grid(1)
    if q >= queries.shape[0]:
        return
    m = reference.shape[0]
    row = cuda.local.array(ROW_LEN, int32)
    for j in range(m + 1):
        row[j] = 0

    top = 0
    top_i = -1
    top_j = -1
    for i in range(queries.shape[1]):
        a = queries[q, i]
        if a == PAD:
            break
        diag = 0            # H[i-1][j-1] for j = 1
        for j in range(1, m + 1):
            up = row[j]     # H[i-1][j]
            h = max(0, diag + score(a, reference[j - 1]),
                    up + GAP, row[j - 1] + GAP)
            diag = up
            row[j] = h
            if h > top:
                top, top_i, top_j = h, i, j - 1
    best[q] = top
    best_end[q, 0] = top_i
    best_end[q, 1] = top_j


if __name__ == "__main__":
    ref = encode("ACGTTGCAACGTAGCTAGCTTACGGATCCA", 30)
    reads = np.stack([encode(s, 12) for s in ("GCAACG", "TAGCTTAC", "GGGG", "ACGTAGCTAG")])
    print([read_length(r) for r in reads])
    best = np.zeros(4, dtype=np.int32)
    ends = np.zeros((4, 2), dtype=np.int32)
    sw_scores[1, 32](reads, ref, best, ends)
    print(best, ends)
