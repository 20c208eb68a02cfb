"""MinHash sketches of DNA reads for fast similarity estimates (Mash-style).

Each thread sketches one read: every k-mer (2 bits per base, packed in a
uint64) is hashed with NUM_HASH seeded SplitMix64 finalisers and the minimum
per seed is kept.  All arithmetic stays in uint64 so that it wraps as the
C original does.
"""
import numpy as np
from numba import cuda, uint64

K = 15
NUM_HASH = 8
KMER_MASK = np.uint64((1 << (2 * K)) - 1)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
TWO = np.uint64(2)
ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@cuda.jit(device=True)
def splitmix64(z):
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@cuda.jit
def minhash(reads, lengths, seeds, sketch):
    r = cuda.grid(1)
    if r >= reads.shape[0]:
        return
    mins = cuda.local.array(NUM_HASH, uint64)
    for j in range(NUM_HASH):
        mins[j] = ALL_ONES
    code = uint64(0)
    n = lengths[r]
    for i in range(n):
        code = ((code << TWO) | uint64(reads[r, i])) & KMER_MASK
        if i >= K - 1:
            for j in range(NUM_HASH):
                h = splitmix64(code ^ seeds[j])
                if h < mins[j]:
                    mins[j] = h
    for j in range(NUM_HASH):
        sketch[r, j] = mins[j]


def jaccard_estimate(a, b):
    return float(np.mean(a == b))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    reads = rng.integers(0, 4, (4, 120)).astype(np.uint8)
    reads[1, :100] = reads[0, 20:]
    seeds = rng.integers(0, 2 ** 63, NUM_HASH, dtype=np.uint64)
    sk = np.zeros((4, NUM_HASH), np.uint64)
    minhash[1, 32](reads, np.full(4, 120, np.int32), seeds, sk)
    print(jaccard_estimate(sk[0], sk[1]), jaccard_estimate(sk[0], sk[2]))
