"""Univariate kernel density estimation with a choice of kernels and rule-of-thumb bandwidths."""
import math

import numpy as np
from numba import njit

SQRT_2PI = math.sqrt(2.0 * math.pi)
KERNELS = ("gaussian", "epanechnikov", "tophat")


@njit
def gaussian(u):
    return math.exp(-0.5 * u * u) / SQRT_2PI


@njit
def epanechnikov(u):
    return 0.75 * (1.0 - u * u) if abs(u) <= 1.0 else 0.0


@njit
def tophat(u):
    return 0.5 if abs(u) <= 1.0 else 0.0


@njit
def kernel_value(kind, u):
    if kind == 0:
        return gaussian(u)
    elif kind == 1:
        return epanechnikov(u)
    return tophat(u)


@njit
def silverman_bandwidth(x):
    n = x.size
    q75, q25 = np.percentile(x, 75.0), np.percentile(x, 25.0)
    spread = min(np.std(x), (q75 - q25) / 1.34)
    return 0.9 * spread * n ** (-0.2)


@njit
def scott_bandwidth(x):
    return 1.06 * x.std() * len(x) ** (-1 / 5)


@njit
def density(x, grid, h, kind):
    out = np.zeros(grid.shape[0])
    for j in range(grid.shape[0]):
        acc = 0.0
        for xi in x:
            acc += kernel_value(kind, (grid[j] - xi) / h)
        out[j] = acc / (x.shape[0] * h)
    return out


@njit
def trapezoid(y, x):
    total = 0.0
    for i in range(1, len(x)):
        total += 0.5 * (y[i] + y[i - 1]) * (x[i] - x[i - 1])
    return total


@njit
def modes(f):
    found = []
    for i in range(1, f.size - 1):
        if f[i] > f[i - 1] and f[i] >= f[i + 1]:
            found.append(i)
    return found


@njit
def kde_summary(x, n_grid):
    lo, hi = x.min(), x.max()
    pad = 0.1 * (hi - lo)
    grid = np.linspace(lo - pad, hi + pad, n_grid)
    h_silverman = silverman_bandwidth(x)
    h_scott = scott_bandwidth(x)
    areas = np.empty(len(KERNELS))
    peaks = np.zeros(len(KERNELS), dtype=np.int64)
    curves = np.empty((len(KERNELS), n_grid))
    for k in range(len(KERNELS)):
        curves[k] = density(x, grid, h_silverman, k)
        areas[k] = trapezoid(curves[k], grid)
        peaks[k] = len(modes(curves[k]))
    mode_at = grid[np.argmax(curves[0])]
    return h_silverman, h_scott, curves, areas, peaks, mode_at
