"""Soft thresholding (the proximal operator of the L1 norm) as a GPU ufunc.

The scalar rule is a plain function, tested on its own; the ufunc is made by
calling vectorize on it rather than decorating it.
"""
import numpy as np
from numba import vectorize

SIGNATURES = ['float32(float32, float32)', 'float64(float64, float64)']


def _soft_threshold(x, lam):
    if x > lam:
        return x - lam
    if x < -lam:
        return x + lam
    return 0.0


soft_threshold = vectorize(['float32(float32, float32)', 'float64(float64, float64)'],
                           target='cuda')(_soft_threshold)


if __name__ == "__main__":
    rng = np.random.default_rng(12)
    coeffs = rng.standard_normal(1000)
    shrunk = soft_threshold(coeffs, 0.5)
    print((shrunk == 0).mean())
