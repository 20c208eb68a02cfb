"""Per-bin efficiency ratios for a detector scan, written to run with or without Numba installed."""
import numpy as np

try:
    import numba as nb
    from numba import jit, prange
    HAVE_NUMBA = True
except ImportError:  # pure-Python fallback: the same code, only slower
    HAVE_NUMBA = False
    prange = range

    def jit(*args, **kwargs):
        def wrap(func):
            return func
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return wrap

FAST_FLAGS = {'nsz', 'arcp', 'contract'}
EMPTY_BIN = -1.0


@jit(nopython=True, cache=True, nogil=True, error_model='numpy')
def ratio(passed, total):
    # a bin with no events gives nan or inf, as NumPy would, instead of raising
    return passed / total


@jit(nopython=True, error_model='numpy', fastmath=FAST_FLAGS)
def bin_ratios(passed, total):
    out = np.empty(passed.shape[0])
    for i in prange(passed.shape[0]):
        out[i] = ratio(passed[i], total[i])
    return out


@jit(nopython=True, error_model='numpy')
def integer_steps(counts, step):
    # floor division and modulo by a zero step give 0 under error_model='numpy'
    whole = np.zeros(counts.shape[0], dtype=np.int64)
    rest = np.zeros(counts.shape[0], dtype=np.int64)
    for i in range(counts.shape[0]):
        whole[i] = counts[i] // step
        rest[i] = counts[i] % step
    return whole, rest


@nb.njit(cache=True)
def summarize(passed, total, step):
    r = bin_ratios(passed, total)
    finite = 0
    acc = 0.0
    for v in r:
        if np.isfinite(v):
            finite += 1
            acc += v
    empty = 0
    for i in range(r.shape[0]):
        if np.isnan(r[i]):
            empty += 1
    whole, rest = integer_steps(total.astype(np.int64), step)
    return finite, acc, empty, r, whole.sum(), rest.sum(), ratio(1.0, 0.0), ratio(-2.0, 0.0)
