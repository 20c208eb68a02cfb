"""Pairwise Hamming distances between sequencing barcodes (uint8 codes).

Demultiplexing needs to know which barcode pairs are too close to be told
apart.  One thread per pair (i, j) of a 2-D grid; only the upper triangle is
computed and mirrored.  The count stops early once it exceeds MAX_REPORT,
which is all the collision check needs.
"""
import numpy as np
from numba import cuda, uint8, int16

MAX_REPORT = 6
N_CODE = {"A": 0, "C": 1, "G": 2, "T": 3}


def encode_all(barcodes):
    width = max(len(b) for b in barcodes)
    out = np.zeros((len(barcodes), width), dtype=np.uint8)
    for i, b in enumerate(barcodes):
        out[i, :len(b)] = [N_CODE[ch] for ch in b]
    return out


@cuda.jit
def hamming_matrix(codes, dist, close_pairs):
    i, j = cuda.grid(2)
    n, width = codes.shape
    if i >= n or j >= n or j < i:
        return
    if i == j:
        dist[i, j] = 0
        return
    d = int16(0)
    for k in range(width):
        if codes[i, k] != codes[j, k]:
            d += 1
            if d > MAX_REPORT:
                break
    dist[i, j] = d
    dist[j, i] = d
    if d <= 2:
        cuda.atomic.add(close_pairs, 0, 1)


if __name__ == "__main__":
    bc = encode_all(["ACGTACGT", "ACGTACGA", "TTTTACGT", "ACGAACGA"])
    dm = np.zeros((4, 4), np.int16)
    cp = np.zeros(1, np.int32)
    hamming_matrix[(1, 1), (16, 16)](bc, dm, cp)
    print(dm, cp)
