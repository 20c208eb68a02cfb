"""Onset detection from a magnitude spectrogram, as a beat tracker's front end does it.

Spectral flux: log-compress the spectrogram, take the positive first difference along time
against a lagged, locally maximum-filtered reference, average over frequency, then pick
peaks that are local maxima above a moving average and at least `wait` frames apart.
"""
import numpy as np
from numba import njit

LOG_GAMMA = 100.0
LAG = 1
MAX_SIZE = 3          # the frequency max-filter width (superflux)
PRE_MAX, POST_MAX = 3, 3
PRE_AVG, POST_AVG = 10, 10
DELTA = 0.05
WAIT = 4


@njit
def max_filter_freq(S, size):
    half = size // 2
    n_frames, n_bins = S.shape
    out = np.empty_like(S)
    for t in range(n_frames):
        for f in range(n_bins):
            lo = max(0, f - half)
            hi = min(n_bins, f + half + 1)
            out[t, f] = S[t, lo:hi].max()
    return out


@njit
def onset_strength(S):
    log_S = np.log1p(LOG_GAMMA * S)
    ref = max_filter_freq(log_S, MAX_SIZE)
    flux = np.maximum(0.0, log_S[LAG:] - ref[:-LAG])
    envelope = np.zeros(S.shape[0])
    envelope[LAG:] = flux.sum(axis=1) / S.shape[1]
    # remove the slow trend, as a first-order high-pass would
    envelope -= envelope.min()
    peak = envelope.max()
    if peak > 0:
        envelope /= peak
    return envelope


@njit
def peak_pick(x, pre_max, post_max, pre_avg, post_avg, delta, wait):
    n_frames = x.shape[0]
    peaks = np.zeros(n_frames, dtype=np.bool_)
    peaks[0] = x[0] >= np.max(x[:min(post_max, n_frames)])
    peaks[0] &= x[0] >= np.mean(x[:min(post_avg, n_frames)]) + delta
    n = wait + 1 if peaks[0] else 1
    while n < n_frames:
        local_max = np.max(x[max(0, n - pre_max):min(n + post_max, n_frames)])
        peaks[n] = x[n] == local_max
        if not peaks[n]:
            n += 1
            continue
        local_avg = np.mean(x[max(0, n - pre_avg):min(n + post_avg, n_frames)])
        peaks[n] &= x[n] >= local_avg + delta
        if not peaks[n]:
            n += 1
            continue
        n += wait + 1
    return peaks


@njit(cache=True)
def detect_onsets(S, hop_seconds):
    if S.ndim != 2 or S.shape[0] < 2:
        raise ValueError("need a (frames, bins) spectrogram with two frames or more")
    envelope = onset_strength(S)
    peaks = peak_pick(envelope, PRE_MAX, POST_MAX, PRE_AVG, POST_AVG, DELTA, WAIT)
    frames = np.flatnonzero(peaks)
    times = frames * hop_seconds
    intervals = np.diff(times)
    tempo = 60.0 / np.median(intervals) if intervals.size > 0 else 0.0
    return envelope, frames, times, round(tempo, 3)
