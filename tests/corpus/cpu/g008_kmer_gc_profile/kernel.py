"""Composition of a DNA contig: GC content in sliding windows, k-mer counts in a dict keyed by
2-bit codes, canonical k-mers (a k-mer or its reverse complement), and the GC skew minimum."""
import numpy as np
from numba import njit

CONTIG = ("ATGCGTACGTTAGCCGATCGATCGGCTAAGCTTACGCGCGATATATCGCGGCTAGCTAGGCTTAACG"
          "GCGCGCTATATAAGCGCTAGCTTAGCGCGATCGATTTACGCGCATATGCGCGATCGTACGATCGAAT")
K = 4
WINDOW = 20
BASES = "ACGT"


@njit
def encode(seq):
    codes = np.empty(len(seq), dtype=np.int64)
    for i in range(len(seq)):
        code = BASES.find(seq[i])
        if code < 0:
            raise ValueError("unexpected base in the contig")
        codes[i] = code
    return codes


@njit
def gc_fraction(codes):
    # C and G are codes 1 and 2
    return np.mean((codes == 1) | (codes == 2))


@njit
def windowed_gc(codes, window):
    n = codes.shape[0] - window + 1
    out = np.empty(n)
    is_gc = ((codes == 1) | (codes == 2)).astype(np.int64)
    running = is_gc[:window].sum()
    out[0] = running / window
    for i in range(1, n):
        running += is_gc[i + window - 1] - is_gc[i - 1]
        out[i] = running / window
    return out


@njit
def reverse_complement_code(code, k):
    rc = 0
    for _ in range(k):
        rc = (rc << 2) | (3 - (code & 3))
        code >>= 2
    return rc


@njit
def count_kmers(codes, k, canonical):
    mask = (1 << (2 * k)) - 1
    counts = {}
    code = 0
    for i in range(codes.shape[0]):
        code = ((code << 2) | codes[i]) & mask
        if i < k - 1:
            continue
        key = code
        if canonical:
            key = min(code, reverse_complement_code(code, k))
        if key in counts:
            counts[key] += 1
        else:
            counts[key] = 1
    return counts


@njit
def decode(code, k):
    out = ""
    for shift in range(2 * (k - 1), -1, -2):
        out += BASES[(code >> shift) & 3]
    return out


@njit
def gc_skew_minimum(seq):
    skew = 0
    best = 0
    where = 0
    for i, c in enumerate(seq):
        if c == "G":
            skew += 1
        elif c == "C":
            skew -= 1
        if skew < best:
            best, where = skew, i + 1
    return best, where


@njit
def composition_report(k_override):
    k = K if k_override <= 0 else k_override
    codes = encode(CONTIG)
    gc = gc_fraction(codes)
    profile = windowed_gc(codes, WINDOW)
    plain = count_kmers(codes, k, False)
    canon = count_kmers(codes, k, True)
    top_code, top_count = -1, 0
    for code, n in plain.items():
        if n > top_count or (n == top_count and code < top_code):
            top_code, top_count = code, n
    keys = np.array(sorted(canon.keys()))
    values = np.array([canon[c] for c in keys])
    skew_min, skew_at = gc_skew_minimum(CONTIG)
    top = decode(top_code, k)
    return (gc, profile, len(plain), len(canon), keys, values, top_count, len(top), top == "GCGC",
            skew_min, skew_at)
