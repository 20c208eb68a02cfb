"""Spike detection over a long recording processed block by block: each call appends the
absolute sample index of the spikes it finds to the caller's event log (a plain Python list
that lives across blocks), and keeps a per-channel tally in another list."""
import numpy as np
from numba import njit

REFRACTORY = 5        # samples ignored after a spike
HALF_WINDOW = 4       # samples each side used for the local baseline
MIN_PROMINENCE = 0.8


@njit
def local_baseline(signal, i):
    lo = max(0, i - HALF_WINDOW)
    hi = min(signal.shape[0], i + HALF_WINDOW + 1)
    base = signal[lo]
    for j in range(lo + 1, hi):
        if signal[j] < base:
            base = signal[j]
    return base


@njit
def is_local_peak(signal, i):
    return signal[i] > signal[i - 1] and signal[i] >= signal[i + 1]


@njit
def detect_spikes(block, offset, threshold, events, per_block):
    # the last spike logged may sit near the end of the previous block
    last = events[-1] - offset if len(events) > 0 else -REFRACTORY - 1
    found = 0
    i = 1
    while i < block.shape[0] - 1:
        if block[i] > threshold and i - last > REFRACTORY and is_local_peak(block, i):
            if block[i] - local_baseline(block, i) >= MIN_PROMINENCE:
                events.append(offset + i)
                last = i
                found += 1
                i += REFRACTORY
                continue
        i += 1
    per_block.append(found)
    # drop a stale leading entry the caller seeded the log with
    if len(events) > 0 and events[0] < 0:
        events.pop(0)
    return found, len(events)
