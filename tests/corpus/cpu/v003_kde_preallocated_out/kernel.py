"""Gaussian kernel density estimate on a fixed evaluation grid.

The grid and the work buffers are allocated once by the caller and reused for every batch of
samples, so the kernel ufunc writes into them (its output array given after its inputs, as
Numba's ufuncs take it) instead of making a new array per sample.
"""
import math

import numpy as np
from numba import njit, vectorize

INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


@vectorize
def gaussian(x, centre, bandwidth):
    u = (x - centre) / bandwidth
    return INV_SQRT_2PI * math.exp(-0.5 * u * u) / bandwidth


@vectorize
def clamp_to(x, floor):
    return x if x > floor else floor


@njit
def scott_bandwidth(samples):
    return 1.06 * samples.std() * samples.size ** (-0.2)


@njit
def density_on_grid(samples, grid, density, contributions):
    h = scott_bandwidth(samples)
    density[:] = 0.0
    row = np.empty_like(grid)
    for s in samples:
        gaussian(grid, s, h, row)               # into the reused row buffer
        density += row
    density /= samples.size
    # all contributions at once: samples down, grid across, broadcast into the buffer
    gaussian(grid, samples.reshape((-1, 1)), h, contributions)
    clamp_to(density, 1e-12, density)            # in place: a floor for the log below
    log_density = np.log(density)
    return h, density, contributions, log_density


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    xs = rng.normal(size=50)
    g = np.linspace(-3, 3, 31)
    print(density_on_grid(xs, g, np.empty_like(g), np.empty((50, 31))))
