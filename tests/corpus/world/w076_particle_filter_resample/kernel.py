"""Particle filter for robot localisation: weighting and systematic resampling.

Two kernels: the measurement update weights each particle by a Gaussian
likelihood of the range readings to known landmarks; systematic resampling
then picks ancestors by a binary search of the normalised cumulative weights
for the evenly spaced points (u0 + j) / N.  The cumulative sum is taken on
the host between the two launches.
"""
import math

import numpy as np
from numba import cuda

RANGE_SIGMA = 0.5
INV_2SIG2 = 1.0 / (2.0 * RANGE_SIGMA * RANGE_SIGMA)


@cuda.jit
def weight_particles(particles, landmarks, ranges, log_w):
    p = cuda.grid(1)
    if p >= particles.shape[0]:
        return
    x = particles[p, 0]
    y = particles[p, 1]
    acc = 0.0
    for k in range(landmarks.shape[0]):
        d = math.hypot(landmarks[k, 0] - x, landmarks[k, 1] - y)
        r = ranges[k] - d
        acc -= r * r * INV_2SIG2
    log_w[p] = acc


@cuda.jit(device=True)
def upper_bound(cdf, u):
    """First index i with cdf[i] > u (cdf ascending, cdf[-1] == 1)."""
    lo = 0
    hi = cdf.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@cuda.jit
def systematic_resample(cdf, u0, particles, ancestors, new_particles):
    j = cuda.grid(1)
    n = cdf.shape[0]
    if j >= n:
        return
    u = (u0 + j) / n
    a = upper_bound(cdf, u)
    ancestors[j] = a
    new_particles[j, 0] = particles[a, 0]
    new_particles[j, 1] = particles[a, 1]
    new_particles[j, 2] = particles[a, 2]


def normalised_cdf(log_w):
    w = np.exp(log_w - log_w.max())
    c = np.cumsum(w)
    c /= c[-1]
    c[-1] = 1.0
    return c


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    parts = np.column_stack([rng.uniform(0, 10, 500), rng.uniform(0, 10, 500), rng.uniform(-3, 3, 500)])
    lm = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 10.0]])
    rg = np.hypot(lm[:, 0] - 3.0, lm[:, 1] - 4.0)
    lw = np.zeros(500)
    weight_particles[4, 128](parts, lm, rg, lw)
    anc = np.zeros(500, np.int32); newp = np.zeros_like(parts)
    systematic_resample[4, 128](normalised_cdf(lw), rng.random(), parts, anc, newp)
    print(newp[:, :2].mean(axis=0))
