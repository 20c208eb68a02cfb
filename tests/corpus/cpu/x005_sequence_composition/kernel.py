"""Composition of a short DNA sequence kept as a module constant: base counts, GC content per
window, and where a motif first occurs, as a small bioinformatics helper computes them."""
import numpy as np
from numba import njit

SEQUENCE = "atgGCGtacGCTTAGcgcaTTGACGGCtaaCGTAGCTAGctagGGCC"
BASES = "ACGT"
MOTIF = "tag"


@njit
def base_index(base):
    return BASES.find(base)


@njit
def composition(sequence):
    counts = np.zeros(len(BASES), dtype=np.int64)
    for c in sequence.upper():
        k = base_index(c)
        if k >= 0:
            counts[k] += 1
    return counts


@njit
def gc_windows(sequence, width):
    seq = sequence.upper()
    n = len(seq) - width + 1
    gc = np.zeros(n)
    for i in range(n):
        window = seq[i:i + width]
        hits = 0
        for c in window:
            if c in "GC":
                hits += 1
        gc[i] = hits / width
    return gc


@njit
def motif_positions(sequence, motif):
    seq = sequence.lower()
    positions = np.full(len(seq), -1, dtype=np.int64)
    found = 0
    for i in range(len(seq) - len(motif) + 1):
        if seq[i:i + len(motif)] == motif:
            positions[found] = i
            found += 1
    return positions[:found], seq.find(motif), seq.startswith("atg"), seq[::-1].find(motif[::-1])


@njit
def analyse(width):
    counts = composition(SEQUENCE)
    gc = gc_windows(SEQUENCE, width)
    positions, first, starts, last_reversed = motif_positions(SEQUENCE, MOTIF)
    return counts, gc, positions, first, starts, last_reversed
