"""Identity-by-state between samples from bit-packed genotypes.

Genotypes are packed 32 sites per uint32 word in two bit planes (has the
minor allele once / twice) plus a missingness plane.  A block compares one
reference sample against all others: popcounts of XORed planes give the
allele differences on sites both samples have called.  The block also votes,
with syncthreads_count, how many of its threads saw any missing data.
"""
import numpy as np
from numba import cuda, uint32, int32

SITES_PER_WORD = 32


@cuda.jit(device=True, inline=True)
def allele_difference(a1, a2, b1, b2, called):
    # genotype dosage = plane1 + plane2; difference 0, 1 or 2 per site
    one = (a1 ^ b1) & called
    two = (a2 ^ b2) & called
    return cuda.popc(one) + cuda.popc(two)


@cuda.jit
def ibs_to_reference(plane1, plane2, missing, ref, diff, called_sites, votes):
    s = cuda.grid(1)
    n_samples, n_words = plane1.shape
    saw_missing = 0
    if s < n_samples:
        d = 0
        c = 0
        for w in range(n_words):
            called = ~(missing[s, w] | missing[ref, w]) & uint32(0xFFFFFFFF)
            if missing[s, w] != 0:
                saw_missing = 1
            d += allele_difference(plane1[s, w], plane2[s, w],
                                   plane1[ref, w], plane2[ref, w], called)
            c += cuda.popc(called)
        diff[s] = d
        called_sites[s] = c
    n_missing = cuda.syncthreads_count(saw_missing)
    if cuda.threadIdx.x == 0:
        votes[cuda.blockIdx.x] = n_missing


def pack(dosage, miss):
    """dosage (n, sites) in {0, 1, 2}, miss (n, sites) bool -> three (n, words) planes."""
    n, sites = dosage.shape
    words = (sites + SITES_PER_WORD - 1) // SITES_PER_WORD
    planes = np.zeros((3, n, words), dtype=np.uint32)
    for k in range(sites):
        w, b = divmod(k, SITES_PER_WORD)
        planes[0, :, w] |= ((dosage[:, k] >= 1) << b).astype(np.uint32)
        planes[1, :, w] |= ((dosage[:, k] == 2) << b).astype(np.uint32)
        planes[2, :, w] |= (miss[:, k] << b).astype(np.uint32)
    return planes


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    p = pack(rng.integers(0, 3, (40, 100)), rng.random((40, 100)) < 0.02)
    d = np.zeros(40, np.int32); c = np.zeros(40, np.int32); v = np.zeros(2, np.int32)
    ibs_to_reference[2, 32](p[0], p[1], p[2], 0, d, c, v)
    print(d[:5], c[:5], v)
