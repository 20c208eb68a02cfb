"""Matrix profile of a sensor trace (STOMP-style): rolling mean and standard deviation,
sliding dot products updated diagonal by diagonal, z-normalised distances with an exclusion
zone, then the top motif pair and the discord."""
import math

import numpy as np
from numba import njit, prange

EXCL_DENOM = 4  # exclusion zone: a quarter of the window on either side


@njit
def rolling_mean_std(T, m):
    csum = np.zeros(T.shape[0] + 1)
    csum[1:] = np.cumsum(T)
    csq = np.zeros(T.shape[0] + 1)
    csq[1:] = np.cumsum(T * T)
    l = T.shape[0] - m + 1
    mu = (csum[m:] - csum[:l]) / m
    var = (csq[m:] - csq[:l]) / m - mu ** 2
    sigma = np.sqrt(np.maximum(var, 0.0))
    return mu, sigma


@njit
def sliding_dot_product(Q, T):
    m = Q.shape[0]
    l = T.shape[0] - m + 1
    out = np.empty(l)
    for i in range(l):
        out[i] = np.dot(Q, T[i:i + m])
    return out


@njit
def z_distance(qt, m, mu_q, sigma_q, mu_t, sigma_t):
    if sigma_q < 1e-12 or sigma_t < 1e-12:
        return math.sqrt(m)
    rho = (qt - m * mu_q * mu_t) / (m * sigma_q * sigma_t)
    return math.sqrt(max(2.0 * m * (1.0 - rho), 0.0))


@njit(parallel=True)
def stomp(T, m):
    l = T.shape[0] - m + 1
    mu, sigma = rolling_mean_std(T, m)
    excl = int(math.ceil(m / EXCL_DENOM))
    first_row = sliding_dot_product(T[:m], T)
    P = np.full(l, np.inf)
    I = np.full(l, -1, dtype=np.int64)
    # one diagonal per task: QT(i, i + k) from QT(i - 1, i - 1 + k)
    P_diag = np.full((l, l), np.inf)
    for k in prange(excl + 1, l):
        qt = first_row[k]
        for i in range(0, l - k):
            j = i + k
            if i > 0:
                qt = qt - T[i - 1] * T[j - 1] + T[i + m - 1] * T[j + m - 1]
            P_diag[i, j] = z_distance(qt, m, mu[i], sigma[i], mu[j], sigma[j])
    for i in range(l):
        for j in range(l):
            d = min(P_diag[i, j], P_diag[j, i])
            if d < P[i]:
                P[i] = d
                I[i] = j
    return P, I


@njit
def top_motif(P, I):
    a = np.argmin(P)
    return a, I[a], P[a]


@njit
def discord(P):
    finite = np.where(np.isfinite(P), P, -1.0)
    return np.argmax(finite)


@njit
def profile_report(noise, m):
    n = noise.shape[0]
    t = np.arange(n) * 0.1
    T = np.sin(t) + 0.3 * noise
    # plant the same bump twice, and one spike
    bump = np.hanning(m)
    T[40:40 + m] += 2.0 * bump
    T[150:150 + m] += 2.0 * bump
    T[110] += 4.0
    P, I = stomp(T, m)
    a, b, d = top_motif(P, I)
    return P, I, min(a, b), max(a, b), d, discord(P)
