"""Smoothing many sensor traces at once with generalized ufuncs.

Each row of the input is one trace; the smoothing factor and the warm-up length are scalars
shared by every row. The type signatures are written the short way many projects do: the
argument types alone, as one string or as a tuple of Numba types.
"""
import numpy as np
from numba import cuda, guvectorize, float32, float64, int32

WARMUP_DEFAULT = 4


@cuda.jit(device=True)
def blend(alpha, new, old):
    return alpha * new + (1.0 - alpha) * old


@guvectorize(['float32[:], float32, int32, float32[:]',
              'float64[:], float64, int32, float64[:]'],
             '(n),(),()->(n)', target='cuda')
def exponential_smooth(trace, alpha, warmup, out):
    # The first `warmup` samples are averaged to seed the filter.
    n = trace.shape[0]
    w = min(max(warmup, 1), n)
    seed = 0.0
    for i in range(w):
        seed += trace[i]
    level = seed / w
    for i in range(n):
        level = blend(alpha, trace[i], level)
        out[i] = level


@guvectorize([(float64[:], float64[:], float64[:])], '(n),()->()', target='cuda')
def crossings(trace, threshold, count):
    # A () core dimension given a 1-d array type: each call sees a one-element array.
    c = 0
    for i in range(1, trace.shape[0]):
        if (trace[i - 1] - threshold[0]) * (trace[i] - threshold[0]) < 0:
            c += 1
    count[0] = c


def smooth_all(traces, alpha=0.3, warmup=WARMUP_DEFAULT):
    return exponential_smooth(traces, alpha, warmup)


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    traces = np.cumsum(rng.standard_normal((16, 200)), axis=1)
    smoothed = smooth_all(traces)
    print(crossings(smoothed, 0.0))
