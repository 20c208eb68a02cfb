"""Per-sample call rates from bit-packed missingness masks (uint32 words).

Genotyping QC: bit b of word w is set when site 32 w + b is missing.  The
called sites are the inverted mask; popcounts of the inverted words give the
number of called sites per sample, and a sample whose call rate falls below
MIN_CALL_RATE is flagged.  The last word is only partly used, so its unused
high bits are cleared with a tail mask.
"""
import numpy as np
from numba import cuda, uint32

MIN_CALL_RATE = 0.97
BITS = 32


@cuda.jit
def call_rates(missing, n_sites, called, rate, flagged):
    s = cuda.grid(1)
    n_samples, n_words = missing.shape
    if s >= n_samples:
        return
    tail_bits = n_sites - BITS * (n_words - 1)
    c = 0
    for w in range(n_words - 1):
        c += cuda.popc(~missing[s, w])
    tail_mask = uint32((1 << tail_bits) - 1)
    c += cuda.popc(~missing[s, n_words - 1] & tail_mask)
    called[s] = c
    rate[s] = c / n_sites
    flagged[s] = 1 if c / n_sites < MIN_CALL_RATE else 0


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    miss = (rng.random((8, 100)) < 0.03)
    words = np.zeros((8, 4), np.uint32)
    for k in range(100):
        words[:, k // 32] |= (miss[:, k].astype(np.uint32) << np.uint32(k % 32))
    c = np.zeros(8, np.int64); r = np.zeros(8); f = np.zeros(8, np.int8)
    call_rates[1, 32](words, 100, c, r, f)
    print(c, 100 - miss.sum(axis=1))
