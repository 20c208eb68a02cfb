# NumPy inside @njit functions, for bench/njit_bench.py --suite numpy (issue 33): each function
# is run through pykern's C++ API (bench/bench_njit.cpp) and through Numba in the same run, on
# the same inputs (bench/numpy_cases.json, which names each case's family), and their results
# are compared before their times are. One function per operation and layout, kept to the call
# being timed: a case is this function plus one row of the case file.
import numpy as np
from numba import njit


# ---- creation: a new array, filled by a loop as code that builds a result does ----

@njit
def zeros_fill(n):
    a = np.zeros(n)
    for i in range(n):
        a[i] = i * 0.5
    return a


@njit
def zeros_2d_fill(n):
    rows = n // 1000
    a = np.zeros((rows, 1000), dtype=np.float32)
    for i in range(rows):
        for j in range(1000):
            a[i, j] = i - j
    return a


@njit
def full_update(n):
    a = np.full(n, 1.5)
    for i in range(0, n, 3):
        a[i] += i
    return a


@njit
def arange_scale(n):
    a = np.arange(n)
    for i in range(n):
        a[i] = a[i] * 3 + 1
    return a


@njit
def arange_float(n):
    a = np.arange(0.0, n * 0.25, 0.25)
    for i in range(a.shape[0]):
        a[i] = a[i] * a[i]
    return a


@njit
def copy_update(x):
    a = np.copy(x)
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0 + 1.0
    return a


@njit
def method_copy_strided(x):
    a = x[::2].copy()
    for i in range(a.shape[0]):
        a[i] -= 1.0
    return a


# ---- whole-array reductions: C-contiguous (x) and every other element (x[::2]) ----

@njit
def sum_c(x):
    return np.sum(x)


@njit
def sum_strided(x):
    return np.sum(x[::2])


@njit
def mean_c(x):
    return x.mean()


@njit
def mean_strided(x):
    return np.mean(x[::2])


@njit
def var_c(x):
    return np.var(x)


@njit
def std_c(x):
    return x.std()


@njit
def std_strided(x):
    return np.std(x[::2])


@njit
def min_c(x):
    return np.min(x)


@njit
def max_c(x):
    return x.max()


@njit
def max_strided(x):
    return np.max(x[::2])


@njit
def argmin_c(x):
    return np.argmin(x)


@njit
def argmax_c(x):
    return x.argmax()


@njit
def argmax_strided(x):
    return np.argmax(x[::2])


@njit
def median_c(x):
    return np.median(x)


@njit
def nansum_c(x):
    return np.nansum(x)


@njit
def count_nonzero_c(x):
    return np.count_nonzero(x)


@njit
def all_c(x):
    return np.all(x)


@njit
def any_c(x):
    return np.any(x)


@njit
def sum_2d_columns(x):
    # A 2-d view that is neither C nor F: every other column.
    return np.sum(x[:, ::2])


# ---- array expressions, sorting, linear algebra, scans and axis reductions ----

@njit
def fused_hypot(a, b):
    return np.sqrt(a * a + b * b) * 0.5


@njit
def sort_copy(x):
    return np.sort(x)


@njit
def argsort_of(x):
    return np.argsort(x)


@njit
def matmul(a, b):
    return a @ b


@njit
def cumsum_of(x):
    return np.cumsum(x)


@njit
def sum_axis0(x):
    return np.sum(x, axis=0)


@njit
def where_clip(x):
    return np.where(x > 0.0, np.clip(x, 0.0, 0.5), -x * 0.25)


@njit
def inplace_axpy(y, x):
    y += 2.5 * x
    return y[0] + y[-1]


@njit
def mask_select(x):
    return x[x > 0.25]


@njit
def gather(x, idx):
    return x[idx]


@njit
def search_sorted(x):
    edges = np.sort(x[::97])
    return np.searchsorted(edges, x)


@njit
def histogram_of(x):
    counts, edges = np.histogram(x, bins=64)
    return counts


@njit
def dot_vectors(a, b):
    return np.dot(a, b)


@njit
def sum_axis1(x):
    return np.sum(x, axis=1)


@njit
def concatenate_halves(x):
    half = x.shape[0] // 2
    return np.concatenate((x[half:], x[:half]))


@njit
def copy_columns(x):
    return x[:, ::2].copy()


@njit
def concatenate_columns(x):
    half = x.shape[1] // 2
    return np.concatenate((x[:, half:], x[:, :half]), axis=1)
