"""Split a sampled signal at quiet gaps into bursts, keep each burst as its own array, and
summarise them: the shape a small event-detection script takes."""
import numpy as np
from numba import njit

QUIET = 0.25      # |x| below this is silence
MIN_GAP = 3       # this many quiet samples in a row end a burst


@njit(cache=True)
def split_bursts(signal):
    bursts = []
    start = -1
    quiet_run = 0
    for i in range(signal.shape[0]):
        if abs(signal[i]) >= QUIET:
            if start < 0:
                start = i
            quiet_run = 0
        elif start >= 0:
            quiet_run += 1
            if quiet_run == MIN_GAP:
                bursts.append(signal[start:i - MIN_GAP + 1].copy())
                start = -1
                quiet_run = 0
    if start >= 0:
        bursts.append(signal[start:].copy())
    return bursts


@njit
def burst_energy(burst):
    return np.sum(burst * burst)


@njit
def summarise(signal):
    bursts = split_bursts(signal)
    lengths = [b.shape[0] for b in bursts]
    energies = [burst_energy(b) for b in bursts]
    peaks = [np.max(np.abs(b)) for b in bursts]
    # the three strongest bursts, strongest first, as (energy, index) pairs
    ranked = sorted([(energies[k], k) for k in range(len(bursts))], reverse=True)
    top = [ranked[k][1] for k in range(min(3, len(ranked)))]
    longest = bursts[lengths.index(max(lengths))]
    return (len(bursts), np.array(lengths), np.array(energies), np.array(peaks), np.array(top),
            longest.mean(), sum(lengths))
