"""Rank statistics as a scipy-free @njit module computes them: average ranks with ties, a
Spearman correlation from the ranks, empirical quantiles from a sorted copy and a trimmed
mean. The scores are small integers, so ties are common: the quicksort argsort must leave
equal keys where Numba's leaves them."""
import numpy as np
from numba import njit


@njit
def average_ranks(x):
    n = x.shape[0]
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(n, dtype=np.float64)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and x[order[j + 1]] == x[order[i]]:
            j += 1
        shared = 0.5 * (i + j) + 1.0
        for k in range(i, j + 1):
            ranks[order[k]] = shared
        i = j + 1
    return ranks


@njit
def quantile(sorted_values, q):
    pos = q * (sorted_values.shape[0] - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, sorted_values.shape[0] - 1)
    frac = pos - lo
    return sorted_values[lo] * (1.0 - frac) + sorted_values[hi] * frac


@njit
def rank_summary(scores, latency):
    n = scores.shape[0]
    rs = average_ranks(scores)
    rl = average_ranks(latency)
    mean_r = (n + 1) / 2.0
    num = 0.0
    den_s = 0.0
    den_l = 0.0
    for i in range(n):
        ds = rs[i] - mean_r
        dl = rl[i] - mean_r
        num += ds * dl
        den_s += ds * ds
        den_l += dl * dl
    spearman = num / np.sqrt(den_s * den_l)

    ordered = np.sort(latency)
    p10 = quantile(ordered, 0.1)
    p50 = quantile(ordered, 0.5)
    p99 = quantile(ordered, 0.99)
    cut = n // 10
    trimmed = 0.0
    for i in range(cut, n - cut):
        trimmed += ordered[i]
    trimmed /= n - 2 * cut

    # the quick (unstable) argsort of tied scores, and the top five latencies' positions
    quick = np.argsort(scores)
    slowest = latency.argsort()[::-1][:5]
    work = scores.copy()
    work.sort()
    top_score = work[n - 1]
    return rs, spearman, p10, p50, p99, trimmed, quick, slowest, top_score
