# Fitting a polynomial trend to a noisy series, as curve-fitting helpers in time-series and
# instrument-calibration code do: a Vandermonde design matrix built with loops, the fit by
# np.linalg.lstsq (its 4-tuple kept whole), the same fit by the normal equations (A.T @ A,
# np.linalg.solve), the fitted curve by a matrix-vector product, and the residual's norms.
import numpy as np
from numba import njit


@njit
def vandermonde(t, degree):
    n = t.shape[0]
    a = np.empty((n, degree + 1))
    for i in range(n):
        power = 1.0
        for j in range(degree + 1):
            a[i, j] = power
            power *= t[i]
    return a


@njit
def normal_equations(a, y):
    gram = a.T @ a
    rhs = np.dot(a.T, y)
    return np.linalg.solve(gram, rhs)


@njit
def polyfit(t, y, degree):
    n = t.shape[0]
    # Scale time to [-1, 1] so that the design matrix is well conditioned.
    lo = t[0]
    hi = t[n - 1]
    scaled = np.empty(n)
    for i in range(n):
        scaled[i] = (2.0 * t[i] - lo - hi) / (hi - lo)
    a = vandermonde(scaled, degree)
    coef, residuals, rank, sv = np.linalg.lstsq(a, y)
    coef_normal = normal_equations(a, y)
    fitted = a @ coef
    resid = np.empty(n)
    for i in range(n):
        resid[i] = y[i] - fitted[i]
    rms = np.linalg.norm(resid) / np.sqrt(n)
    worst = np.linalg.norm(resid, np.inf)
    condition = sv[0] / sv[sv.shape[0] - 1]
    agree = 0.0
    for j in range(degree + 1):
        d = abs(coef[j] - coef_normal[j])
        if d > agree:
            agree = d
    return coef, residuals, rank, fitted, rms, worst, condition, agree < 1e-8
