"""Frame energies and zero-crossing rates of a mono signal, one frame per thread.

The helpers are compiled eagerly with signatures that give only the argument types, as many
projects write them: numba-cuda converts each call's arguments to those types and the return
type is what the body returns.
"""
import math

import numpy as np
from numba import cuda

FRAME = 32
HOP = 16


@cuda.jit('(float32[:], float32)', device=True)
def weighted_energy(frame, gain):
    acc = 0
    for i in range(frame.shape[0]):
        acc += frame[i] * frame[i] * gain
    return acc


@cuda.jit('(float32[:],)', device=True)
def zero_crossings(frame):
    count = 0
    for i in range(1, frame.shape[0]):
        if (frame[i - 1] < 0) != (frame[i] < 0):
            count += 1
    return count


@cuda.jit('(int64, int64)', device=True)
def rate(count, length):
    return count / length


@cuda.jit
def frame_features(signal, energies, zcr):
    f = cuda.grid(1)
    if f >= energies.shape[0]:
        return
    start = f * HOP
    frame = signal[start:start + FRAME]
    energies[f] = weighted_energy(frame, 0.5)
    zcr[f] = rate(zero_crossings(frame), FRAME)


def features(signal):
    frames = (signal.shape[0] - FRAME) // HOP + 1
    energies = np.zeros(frames)
    zcr = np.zeros(frames)
    frame_features[math.ceil(frames / 64), 64](signal, energies, zcr)
    return energies, zcr


if __name__ == "__main__":
    t = np.arange(4096, dtype=np.float32)
    print(features(np.sin(t / 7).astype(np.float32))[1][:8])
