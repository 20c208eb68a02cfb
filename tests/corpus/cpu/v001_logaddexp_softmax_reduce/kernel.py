"""Class probabilities from classifier scores, in log space.

Each row of `scores` holds one sample's unnormalised log-probabilities. The log-partition of a
row is a fold of log-add-exp over it, written once as a ufunc and reduced along the class axis;
the normaliser of the whole batch folds the row results again. Working in log space keeps very
negative scores from underflowing.
"""
import math

import numpy as np
from numba import njit, vectorize

TEMPERATURE = 1.5


@vectorize
def log_add_exp(a, b):
    # log(exp(a) + exp(b)) without overflow: factor out the larger term
    hi = max(a, b)
    lo = min(a, b)
    if hi == -math.inf:
        return hi
    return hi + math.log1p(math.exp(lo - hi))


@vectorize(identity=0)
def add_counts(a, b):
    return a + b


@njit
def log_partition(scores):
    scaled = scores / TEMPERATURE
    per_row = log_add_exp.reduce(scaled, axis=1)
    return scaled, per_row


@njit
def softmax_report(scores, labels):
    scaled, lse = log_partition(scores)
    probs = np.exp(scaled - lse.reshape((-1, 1)))
    batch = log_add_exp.reduce(lse)                    # 1-d: one number
    per_class = log_add_exp.reduce(scaled, axis=0)     # along the samples
    hits = add_counts.reduce(labels == np.argmax(probs, axis=1).astype(labels.dtype))
    seen = add_counts.reduce(labels, axis=None, initial=0)
    return probs, lse, batch, per_class, hits, seen


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    print(softmax_report(rng.normal(size=(6, 4)), rng.integers(0, 4, 6)))
