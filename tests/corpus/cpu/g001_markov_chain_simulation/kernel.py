"""Finite-state Markov chains: simulate a path, the stationary distribution, mean return times.

A small economics-course module: the transition matrix comes in unnormalised (counts), the
chain is drawn by inverting each row's CDF against uniform draws from a seeded stream.
"""
import numpy as np
from numba import njit

TOL = 1e-12
MAX_ITER = 10_000


@njit(cache=True)
def row_normalise(counts):
    P = counts.astype(np.float64)
    for i in range(P.shape[0]):
        s = P[i].sum()
        if s <= 0.0:
            raise ValueError("every state needs at least one observed transition")
        P[i] /= s
    return P


@njit
def cumulative_rows(P):
    n = P.shape[0]
    cdfs = np.empty_like(P)
    for i in range(n):
        cdfs[i] = np.cumsum(P[i])
        cdfs[i, -1] = 1.0  # guard against rounding in the last bin
    return cdfs


@njit
def draw_state(cdf, u):
    # first index whose cumulative probability reaches u
    return np.searchsorted(cdf, u, side="right")


@njit
def simulate_path(cdfs, init, ts_length, seed):
    np.random.seed(seed)
    X = np.empty(ts_length, dtype=np.int64)
    X[0] = init
    for t in range(ts_length - 1):
        X[t + 1] = draw_state(cdfs[X[t]], np.random.random())
    return X


@njit
def stationary_power(P):
    n = P.shape[0]
    psi = np.full(n, 1.0 / n)
    for it in range(MAX_ITER):
        new = psi @ P
        if np.max(np.abs(new - psi)) < TOL:
            return new, it + 1
        psi = new
    return psi, MAX_ITER


@njit
def empirical_frequencies(X, n_states):
    freq = np.zeros(n_states)
    for x in X:
        freq[x] += 1
    return freq / len(X)


@njit
def return_times(X, state):
    times = []
    last = -1
    for t in range(X.shape[0]):
        if X[t] == state:
            if last >= 0:
                times.append(t - last)
            last = t
    if len(times) == 0:
        return np.nan
    return sum(times) / len(times)


@njit
def markov_report(counts, ts_length, seed):
    P = row_normalise(counts)
    cdfs = cumulative_rows(P)
    X = simulate_path(cdfs, 0, ts_length, seed)
    psi, iterations = stationary_power(P)
    freq = empirical_frequencies(X, P.shape[0])
    mean_return = np.array([return_times(X, s) for s in range(P.shape[0])])
    # Kac's lemma: the mean return time is 1 / psi
    kac_gap = np.abs(mean_return * psi - 1.0).max()
    switches = np.count_nonzero(np.diff(X))
    return X, psi, iterations, freq, mean_return, kac_gap < 0.1, switches
