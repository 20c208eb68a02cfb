# Principal component analysis of a feature matrix, as dimensionality-reduction helpers write
# it with @njit: columns centred by loops, the covariance as xc.T @ xc, its eigen-decomposition
# by np.linalg.eigh (ascending, so read from the end), eigenvector signs fixed so that each
# vector's largest component is positive (LAPACK may return either sign), the projection onto
# the leading components, the explained-variance ratios, and a whitening check through the
# Cholesky factor of the covariance and np.linalg.eigvalsh of a float32 copy.
import numpy as np
from numba import njit


@njit
def centred(x):
    n, d = x.shape
    out = np.empty((n, d))
    for j in range(d):
        mean = 0.0
        for i in range(n):
            mean += x[i, j]
        mean /= n
        for i in range(n):
            out[i, j] = x[i, j] - mean
    return out


@njit
def fix_signs(vectors):
    d, k = vectors.shape
    for j in range(k):
        best = 0
        for i in range(d):
            if abs(vectors[i, j]) > abs(vectors[best, j]):
                best = i
        if vectors[best, j] < 0.0:
            for i in range(d):
                vectors[i, j] = -vectors[i, j]


@njit
def pca(x, k):
    n, d = x.shape
    xc = centred(x)
    cov = xc.T @ xc
    for i in range(d):
        for j in range(d):
            cov[i, j] /= n - 1
    values, vectors = np.linalg.eigh(cov)
    leading = np.empty((d, k))
    variances = np.empty(k)
    for j in range(k):
        source = d - 1 - j
        variances[j] = values[source]
        for i in range(d):
            leading[i, j] = vectors[i, source]
    fix_signs(leading)
    scores = np.dot(xc, leading)
    total = np.trace(cov)
    ratios = np.empty(k)
    for j in range(k):
        ratios[j] = variances[j] / total
    chol = np.linalg.cholesky(cov)
    rebuilt = chol @ chol.T
    err = 0.0
    for i in range(d):
        for j in range(d):
            e = abs(rebuilt[i, j] - cov[i, j])
            if e > err:
                err = e
    single = np.empty((d, d), dtype=np.float32)
    for i in range(d):
        for j in range(d):
            single[i, j] = cov[i, j]
    values32 = np.linalg.eigvalsh(single)
    spread = np.linalg.norm(scores, 1)
    return scores, variances, ratios, leading, err < 1e-10, values32, spread
