"""Per-channel running statistics kept in numba.typed.List accumulators, filled by one
jitted helper and read by another, as a streaming monitor would keep them."""
import numpy as np
import numba
from numba import njit, types
from numba.typed import List

N_CHANNELS = 4


@njit
def new_accumulators():
    sums = List.empty_list(types.float64)
    squares = List.empty_list(numba.types.float64)
    counts = List()
    for _ in range(N_CHANNELS):
        sums.append(0.0)
        squares.append(0.0)
        counts.append(0)
    return sums, squares, counts


@njit
def feed(sums, squares, counts, channel, value):
    sums[channel] += value
    squares[channel] += value * value
    counts[channel] += 1


@njit
def channel_stats(samples, channels, limit):
    sums, squares, counts = new_accumulators()
    rejected = List.empty_list(types.float64)
    for i in range(samples.shape[0]):
        if abs(samples[i]) > limit:
            rejected.append(samples[i])
            continue
        feed(sums, squares, counts, channels[i] % N_CHANNELS, samples[i])
    means = List([sums[c] / counts[c] if counts[c] > 0 else 0.0 for c in range(N_CHANNELS)])
    variances = np.zeros(N_CHANNELS)
    for c in range(N_CHANNELS):
        if counts[c] > 1:
            variances[c] = (squares[c] - counts[c] * means[c] ** 2) / (counts[c] - 1)
    worst = sorted(rejected)
    return np.array(list(means)), variances, np.array(list(counts)), len(rejected), worst[0] if len(worst) > 0 else 0.0
