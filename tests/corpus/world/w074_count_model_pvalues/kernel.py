"""Per-gene count statistics for an RNA-seq screen (one thread per gene).

For each gene: the negative-binomial log-likelihood of its counts given a
mean and dispersion (lgamma form), a Wald z statistic of the log fold change
between two groups, and its two-sided normal p-value via erfc.  Device
functions take default arguments, as the Python prototype did.
"""
import math

import numpy as np
from numba import cuda

PSEUDO = 0.5
SQRT2 = math.sqrt(2.0)
GROUP_WEIGHTS = (1.0, 1.0)


@cuda.jit(device=True)
def nb_logpmf(k, mu, alpha=0.1):
    r = 1.0 / alpha
    return (math.lgamma(k + r) - math.lgamma(r) - math.lgamma(k + 1.0)
            + r * math.log(r / (r + mu)) + k * math.log(mu / (r + mu)))


@cuda.jit(device=True)
def two_sided_p(z, continuity=0.0):
    z = max(abs(z) - continuity, 0.0)
    return math.erfc(z / SQRT2)


@cuda.jit
def gene_stats(counts, is_treated, dispersion, loglik, z_out, p_out):
    g = cuda.grid(1)
    if g >= counts.shape[0]:
        return
    n = counts.shape[1]
    sums = cuda.local.array(2, np.float64)
    sizes = cuda.local.array(2, np.float64)
    for grp in range(2):
        sums[grp] = 0.0
        sizes[grp] = 0.0
    for s in range(n):
        grp = 1 if is_treated[s] else 0
        sums[grp] += counts[g, s]
        sizes[grp] += 1.0
    mu = (sums[0] + sums[1]) / n
    ll = 0.0
    for s in range(n):
        ll += nb_logpmf(counts[g, s], mu + PSEUDO, dispersion[g])
    loglik[g] = ll

    means = cuda.local.array(2, np.float64)
    for grp, w in enumerate(GROUP_WEIGHTS):
        means[grp] = w * (sums[grp] + PSEUDO) / sizes[grp]
    lfc = math.log2(means[1] / means[0])
    var = 0.0
    for m, sz in zip((means[0], means[1]), (sizes[0], sizes[1])):
        var += (1.0 / m + dispersion[g]) / sz
    se = math.sqrt(var) / math.log(2.0)
    z = lfc / se
    z_out[g] = z
    p_out[g] = two_sided_p(z)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    counts = rng.negative_binomial(5, 0.1, (100, 8)).astype(np.float64)
    treated = np.array([0, 0, 0, 0, 1, 1, 1, 1], np.bool_)
    out = [np.zeros(100) for _ in range(3)]
    gene_stats[1, 128](counts, treated, np.full(100, 0.2), *out)
    print((out[2] < 0.05).sum())
