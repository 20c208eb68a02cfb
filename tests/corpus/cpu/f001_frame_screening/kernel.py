"""Screening of sensor frames, as a small monitoring script runs it each minute: every other
frame is kept, its edge rows joined into one strip, the strong samples picked out, a few
samples looked up by position, the quantised readings ranked, and the strip binned and matched
against a template."""
import numpy as np
from numba import njit

THRESHOLD = 0.25
LEVELS = 16  # readings come from a 4-bit converter, so ranks have ties
BINS = 12


@njit
def quantise(x):
    return np.floor(x * LEVELS) / LEVELS


@njit
def column_energy(block):
    total = np.zeros(block.shape[2])
    for i in range(block.shape[0]):
        for j in range(block.shape[1]):
            total += block[i, j] * block[i, j]
    return total


@njit
def loud_frames(kept):
    # frames whose first reading is positive: a mask of the frames, not of their samples
    return kept[kept[:, 0, 0] > 0.0]


@njit
def screen(frames, template, picks):
    kept = frames[::2, :, 1:].copy()
    strip = np.concatenate((kept[0], kept[-1][::-1]), axis=0)
    series = strip[:, 0]
    strong = series[series > THRESHOLD]
    picked = series[picks]
    neighbours = series[picks // 2 - 1]
    readings = quantise(strip.ravel())
    ranks = np.argsort(readings)
    stable_ranks = np.argsort(readings, kind='mergesort')
    counts, edges = np.histogram(strip, BINS)
    match = np.dot(series, template)
    energy = column_energy(kept)
    strip[1:, :] = strip[:-1, :]
    return (strong, picked, neighbours, ranks, stable_ranks, counts, edges, match, energy,
            loud_frames(kept), strip)
