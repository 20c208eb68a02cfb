"""Quadratic trend fits for many sensors at once, as a calibration script writes them.

A sensor whose samples were all taken at one position gives singular normal equations: its
fit is reported as NaN and counted, instead of stopping the whole batch.
"""
import numpy as np
from numba import njit

DEGREE = 2
MIN_SAMPLES = DEGREE + 1


@njit(cache=True)
def vandermonde(x, degree):
    a = np.empty((x.shape[0], degree + 1))
    for i in range(x.shape[0]):
        p = 1.0
        for j in range(degree + 1):
            a[i, j] = p
            p *= x[i]
    return a


@njit(cache=True)
def fit_one(x, y):
    if x.shape[0] < MIN_SAMPLES:
        raise ValueError("too few samples for the fit")
    a = vandermonde(x, DEGREE)
    return np.linalg.solve(a.T @ a, a.T @ y)


@njit(cache=True)
def fit_all(positions, readings):
    n = positions.shape[0]
    coefficients = np.empty((n, DEGREE + 1))
    residuals = np.empty(n)
    failed = 0
    for s in range(n):
        try:
            c = fit_one(positions[s], readings[s])
        except Exception:
            coefficients[s, :] = np.nan
            residuals[s] = np.nan
            failed += 1
            continue
        coefficients[s, :] = c
        fitted = vandermonde(positions[s], DEGREE) @ c
        residuals[s] = np.sqrt(np.mean((readings[s] - fitted) ** 2))
    return coefficients, residuals, failed
