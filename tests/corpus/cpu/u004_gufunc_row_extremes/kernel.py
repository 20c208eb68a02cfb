"""Per-channel extremes of a multichannel recording: a gufunc with two outputs."""
import numpy as np
from numba import guvectorize


@guvectorize(['void(float64[:], float64[:], float64[:])',
              'void(float32[:], float32[:], float32[:])'], '(n)->(),()')
def channel_range(samples, low, high):
    lo = samples[0]
    hi = samples[0]
    for v in samples[1:]:
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    low[0] = lo
    high[0] = hi


if __name__ == "__main__":
    rec = np.random.default_rng(9).normal(size=(8, 1000))
    lo, hi = channel_range(rec)
    print(hi - lo)
