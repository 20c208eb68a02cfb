"""Peak finding on the CPU target: a @jit helper returns the index of the highest peak above a
threshold, or None when there is none (Numba: Optional(int64)); its caller tests it, then uses
it in arithmetic, min/max and abs, and as an index through int() (Numba's getitem takes no
Optional)."""
import numpy as np
from numba import jit


@jit(nopython=True)
def find_peak(signal, threshold):
    best = None
    for i in range(1, signal.shape[0] - 1):
        if signal[i] > threshold and signal[i] >= signal[i - 1] and signal[i] >= signal[i + 1]:
            if best is None or signal[i] > signal[int(best)]:
                best = i
    return best


@jit(nopython=True)
def peak_window_sum(signal, threshold, half):
    p = find_peak(signal, threshold)
    if p is None:
        return -1.0
    lo = max(p - half, 0)
    hi = min(p + half + 1, signal.shape[0])
    total = 0.0
    for k in range(lo, hi):
        total += signal[k]
    return total * 1000.0 + p + signal[int(p)] + abs(p - half)
