"""Batched tridiagonal solves for implicit (Crank-Nicolson) diffusion steps.

Every row of `u` is an independent 1-D problem (a strike grid of one option,
or one column of a soil profile).  One thread per row builds the right-hand
side and solves the tridiagonal system with the Thomas algorithm, using
thread-local arrays for the modified coefficients.
"""
import numpy as np
from numba import cuda, float64

MAX_N = 64


@cuda.jit(device=True)
def thomas(a, b, c, d, x, n, cp, dp):
    """Solve a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]; a[0], c[n-1] unused."""
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m if i < n - 1 else 0.0
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x[n - 1] = dp[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]


@cuda.jit
def crank_nicolson(u, kappa, r, u_new):
    row = cuda.grid(1)
    if row >= u.shape[0]:
        return
    n = u.shape[1]
    lam = r * kappa[row]
    a = cuda.local.array(MAX_N, float64)
    b = cuda.local.array(MAX_N, float64)
    c = cuda.local.array(MAX_N, float64)
    d = cuda.local.array(MAX_N, float64)
    cp = cuda.local.array(MAX_N, float64)
    dp = cuda.local.array(MAX_N, float64)
    x = cuda.local.array(MAX_N, float64)
    for i in range(n):
        left = u[row, i - 1] if i > 0 else 0.0
        right = u[row, i + 1] if i < n - 1 else 0.0
        a[i] = -0.5 * lam
        b[i] = 1.0 + lam
        c[i] = -0.5 * lam
        d[i] = 0.5 * lam * left + (1.0 - lam) * u[row, i] + 0.5 * lam * right
    thomas(a, b, c, d, x, n, cp, dp)
    for i in range(n):
        u_new[row, i] = x[i]


if __name__ == "__main__":
    u = np.zeros((4, 50))
    u[:, 20:30] = 1.0
    out = np.zeros_like(u)
    crank_nicolson[1, 32](u, np.array([0.5, 1.0, 2.0, 4.0]), 0.8, out)
    print(out.sum(axis=1))
