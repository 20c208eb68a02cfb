"""Peak picking on a sampled signal with list comprehensions, as a small analysis script writes it."""
import numpy as np

try:
    import numba as nb
    from numba import njit
except ImportError:  # the module still imports (slowly) without Numba
    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]):
            return args[0]
        return lambda f: f
    nb = None

WINDOW = 3


@njit(fastmath={'nsz', 'arcp'})
def prominence(signal, i):
    left = min([signal[j] for j in range(max(0, i - WINDOW), i)])
    right = min([signal[j] for j in range(i + 1, min(signal.shape[0], i + WINDOW + 1))])
    return signal[i] - max(left, right)


@njit(cache=True, nogil=True)
def find_peaks(signal, threshold):
    n = signal.shape[0]
    # candidate indices: strictly higher than both neighbours
    candidates = [i for i in range(1, n - 1) if signal[i] > signal[i - 1] and signal[i] > signal[i + 1]]
    strong = [i for i in candidates if prominence(signal, i) > threshold]
    heights = [signal[i] for i in strong]
    gaps = [strong[k + 1] - strong[k] for k in range(len(strong) - 1)]
    # for each peak, the sum of the samples around it (a comprehension inside a comprehension)
    window_sums = [sum([signal[j] for j in range(i - 1, i + 2)]) for i in strong]
    i = 7  # the comprehension's i does not leak into the function
    total = 0.0
    for h in heights:
        total += h
    mean_gap = sum(gaps) / len(gaps) if len(gaps) > 0 else 0.0
    return len(candidates), len(strong), total, mean_gap, max(window_sums), i, strong[0], strong[-1]
