"""Gaussian copula sampling: uniform draws to correlated normals.

The inverse normal CDF uses the rational approximation of Abramowitz and
Stegun (26.2.23), evaluated with Horner's rule over coefficient tuples that
are passed to a generic device function.  A Cholesky factor of the
correlation matrix then mixes the coordinates.
"""
import math

import numpy as np
from numba import cuda

# highest power first, for Horner
NUM = (0.010328, 0.802853, 2.515517)
DEN = (0.001308, 0.189269, 1.432788, 1.0)
P_MIN = 1e-12
MAX_DIM = 4


@cuda.jit(device=True)
def horner(coeffs, x):
    acc = 0.0
    for c in coeffs:
        acc = acc * x + c
    return acc


@cuda.jit(device=True)
def inv_norm_cdf(p):
    p = min(max(p, P_MIN), 1.0 - P_MIN)
    q = p if p < 0.5 else 1.0 - p
    t = math.sqrt(-2.0 * math.log(q))
    x = t - horner(NUM, t) / horner(DEN, t)
    return -x if p < 0.5 else x


@cuda.jit
def copula_normals(u, chol, z):
    i = cuda.grid(1)
    n, d = u.shape
    if i >= n:
        return
    g = cuda.local.array(MAX_DIM, dtype=np.float64)
    for k in range(d):
        g[k] = inv_norm_cdf(u[i, k])
    for r in range(d):
        s = 0.0
        for k in range(r + 1):
            s += chol[r, k] * g[k]
        z[i, r] = s


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    corr = np.array([[1.0, 0.6, 0.2], [0.6, 1.0, 0.4], [0.2, 0.4, 1.0]])
    L = np.linalg.cholesky(corr)
    u = rng.random((5000, 3))
    z = np.zeros_like(u)
    copula_normals[40, 128](u, L, z)
    print(np.corrcoef(z.T).round(2))
