"""Counting k-mers of DNA reads with block-private histograms.

Bases are stored as ASCII bytes.  A k-mer is packed two bits per base into an
integer; k-mers containing N are skipped.  Each block counts into shared
memory first and then merges its counts into the global table, which keeps
global atomics down to one per bin per block.
"""
import numpy as np
from numba import cuda, int32, uint32

K = 4
NBINS = 4 ** K
MASK = NBINS - 1
THREADS = 128

ORD_A, ORD_C, ORD_G, ORD_T = ord("A"), ord("C"), ord("G"), ord("T")


@cuda.jit(device=True)
def base_code(ch):
    if ch == ORD_A:
        return 0
    if ch == ORD_C:
        return 1
    if ch == ORD_G:
        return 2
    if ch == ORD_T:
        return 3
    return -1


@cuda.jit
def count_kmers(seq, counts, invalid):
    local_counts = cuda.shared.array(NBINS, dtype=uint32)
    tid = cuda.threadIdx.x
    for b in range(tid, NBINS, cuda.blockDim.x):
        local_counts[b] = 0
    cuda.syncthreads()

    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    n_kmers = seq.shape[0] - K + 1
    for pos in range(start, n_kmers, stride):
        code = 0
        ok = True
        for k in range(K):
            c = base_code(seq[pos + k])
            if c < 0:
                ok = False
                break
            code = ((code << 2) | c) & MASK
        if ok:
            cuda.atomic.add(local_counts, code, 1)
        else:
            cuda.atomic.add(invalid, 0, 1)
    cuda.syncthreads()

    for b in range(tid, NBINS, cuda.blockDim.x):
        if local_counts[b] != 0:
            cuda.atomic.add(counts, b, local_counts[b])


def kmer_spectrum(text):
    seq = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    counts = np.zeros(NBINS, dtype=np.uint32)
    invalid = np.zeros(1, dtype=np.int32)
    count_kmers[4, THREADS](seq, counts, invalid)
    return counts, int(invalid[0])


if __name__ == "__main__":
    print(kmer_spectrum("ACGTNACGTTTGCA" * 20))
