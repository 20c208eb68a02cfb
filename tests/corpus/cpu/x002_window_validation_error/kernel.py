"""A moving-average filter that validates its window before it runs, as a library function would."""
import numpy as np
from numba import njit

MAX_WINDOW = 64


@njit
def check_window(n_samples, window):
    if window <= 0:
        raise ValueError(f"window must be positive, got {window}")
    if window > MAX_WINDOW:
        raise ValueError("window too large", window, MAX_WINDOW)
    if window > n_samples:
        raise ValueError(f"window of {window} samples is longer than the signal ({n_samples} samples)")


@njit
def moving_average(signal, window):
    n = signal.shape[0]
    check_window(n, window)
    out = np.zeros(n - window + 1)
    acc = 0.0
    for i in range(n):
        acc += signal[i]
        if i >= window:
            acc -= signal[i - window]
        if i >= window - 1:
            out[i - window + 1] = acc / window
    return out
