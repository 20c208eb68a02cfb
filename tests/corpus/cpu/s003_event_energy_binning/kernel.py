"""Event processing in the style of a detector analysis: energies histogrammed over a fixed
range and over their own range, each event given its bin with np.digitize against
logarithmic edges, per-channel hit counts and summed energies with np.bincount, and the
channels that fired listed with np.unique."""
import numpy as np
from numba import njit


@njit
def bin_events(energy, channel, n_channels):
    counts, edges = np.histogram(energy, 12, (0.0, 60.0))
    auto_counts, auto_edges = np.histogram(energy, bins=7)

    # logarithmic edges from 1 to 64, and the bin of every event
    log_edges = np.empty(7, dtype=np.float64)
    for i in range(7):
        log_edges[i] = 2.0 ** i
    which = np.digitize(energy, log_edges)
    which_right = np.digitize(energy, log_edges, right=True)
    under = 0
    over = 0
    for i in range(which.shape[0]):
        if which[i] == 0:
            under += 1
        elif which[i] == log_edges.shape[0]:
            over += 1
    log_counts, same_edges = np.histogram(energy, log_edges)

    hits = np.bincount(channel, minlength=n_channels)
    deposited = np.bincount(channel, energy, n_channels)
    mean_energy = np.empty(hits.shape[0], dtype=np.float64)
    for c in range(hits.shape[0]):
        mean_energy[c] = deposited[c] / hits[c] if hits[c] > 0 else 0.0
    fired = np.unique(channel)
    busiest = np.argmax(hits)
    return (counts, edges, auto_counts, auto_edges, which, which_right, under, over,
            log_counts, same_edges, hits, deposited, mean_energy, fired, busiest)
