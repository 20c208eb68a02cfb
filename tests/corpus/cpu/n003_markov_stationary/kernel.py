# A reversible Markov chain as a modelling script studies it: the transition matrix from
# symmetric edge weights (so its eigenvalues are real), the stationary distribution from the
# eigenvector of eigenvalue 1 (np.linalg.eig of the transpose), checked against the rows of a
# high matrix power; the mixing gap from np.linalg.eigvals, and the conditioning, rank,
# log-determinant and pseudo-inverse of the fundamental matrix.
import numpy as np
from numba import njit

STEPS = 64
TOLERANCE = 1e-9


@njit
def transition_matrix(weights):
    n = weights.shape[0]
    sym = weights + weights.T
    for i in range(n):
        sym[i, i] += 1.0
    return sym / sym.sum(axis=1).reshape(n, 1)


@njit
def stationary(p):
    values, vectors = np.linalg.eig(p.T)
    best = 0
    for k in range(values.shape[0]):
        if abs(values[k] - 1.0) < abs(values[best] - 1.0):
            best = k
    v = vectors[:, best]
    return v / v.sum(), values[best]


@njit
def mixing_gap(p):
    values = np.sort(np.linalg.eigvals(p))
    return 1.0 - values[-2], values


@njit
def analyse(weights):
    p = transition_matrix(weights)
    pi, one = stationary(p)
    limit = np.linalg.matrix_power(p, STEPS)
    spread = 0.0
    for i in range(p.shape[0]):
        for j in range(p.shape[1]):
            spread = max(spread, abs(limit[i, j] - pi[j]))
    gap, values = mixing_gap(p)
    n = p.shape[0]
    fundamental = np.eye(n) - p + np.outer(np.ones(n), pi)
    sign, logdet = np.linalg.slogdet(fundamental)
    cond = np.linalg.cond(fundamental)
    cond_inf = np.linalg.cond(fundamental, np.inf)
    rank = np.linalg.matrix_rank(p - np.eye(n))
    rank_tol = np.linalg.matrix_rank(fundamental, 1e-3)
    inverse = np.linalg.pinv(fundamental)
    back = np.linalg.matrix_power(fundamental, -2) @ fundamental @ fundamental
    cube = np.linalg.matrix_power(p, 3)
    return pi, one, spread < TOLERANCE, gap, values, sign, logdet, cond, cond_inf, rank, rank_tol, inverse, back, cube
