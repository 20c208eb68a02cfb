"""A DTMF (touch-tone) decoder built on the Goertzel algorithm.

Each block of samples is tested at the eight keypad frequencies; the strongest row and
column tones, if both clear the threshold and the twist between them is acceptable, name a
key. Repeats of the same key in consecutive blocks count once.
"""
import math

import numpy as np
from numba import njit

ROW_FREQS = (697.0, 770.0, 852.0, 941.0)
COL_FREQS = (1209.0, 1336.0, 1477.0, 1633.0)
KEYPAD = np.array([[1, 2, 3, 10],
                   [4, 5, 6, 11],
                   [7, 8, 9, 12],
                   [14, 0, 15, 13]], dtype=np.int64)   # A..D = 10..13, * = 14, # = 15
BLOCK = 205
MAX_TWIST_DB = 8.0
NO_KEY = -1


@njit
def goertzel_power(block, freq, sample_rate):
    n = block.shape[0]
    k = int(0.5 + n * freq / sample_rate)
    omega = 2.0 * math.pi * k / n
    coeff = 2.0 * math.cos(omega)
    s_prev = 0.0
    s_prev2 = 0.0
    for x in block:
        s = x + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    return s_prev2 * s_prev2 + s_prev * s_prev - coeff * s_prev * s_prev2


@njit
def strongest(block, freqs, sample_rate):
    powers = np.empty(len(freqs))
    for i, f in enumerate(freqs):
        powers[i] = goertzel_power(block, f, sample_rate)
    best = np.argmax(powers)
    return best, powers[best], powers.sum()


@njit
def classify_block(block, sample_rate, threshold):
    row, row_power, row_total = strongest(block, ROW_FREQS, sample_rate)
    col, col_power, col_total = strongest(block, COL_FREQS, sample_rate)
    if row_power < threshold or col_power < threshold:
        return NO_KEY, 0.0
    twist = 10.0 * math.log10(col_power / row_power)
    if abs(twist) > MAX_TWIST_DB:
        return NO_KEY, twist
    # the winning tone should dominate its group
    if row_power < 0.5 * row_total or col_power < 0.5 * col_total:
        return NO_KEY, twist
    return KEYPAD[row, col], twist


@njit(cache=True)
def decode(signal, sample_rate, threshold):
    if sample_rate <= 2 * COL_FREQS[-1]:
        raise ValueError("sample rate too low for DTMF")
    n_blocks = signal.shape[0] // BLOCK
    per_block = np.full(n_blocks, NO_KEY, dtype=np.int64)
    twists = np.zeros(n_blocks)
    keys = []
    previous = NO_KEY
    for b in range(n_blocks):
        key, twist = classify_block(signal[b * BLOCK:(b + 1) * BLOCK], sample_rate, threshold)
        per_block[b] = key
        twists[b] = twist
        if key != NO_KEY and key != previous:
            keys.append(key)
        previous = key
    return np.array(keys), per_block, twists
