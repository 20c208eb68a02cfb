"""Weighted scores of survey answers; the weights must match the questions."""
import numpy as np
from numba import guvectorize, float64


@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()')
def weighted_score(answers, weights, out):
    total = 0.0
    norm = 0.0
    for i in range(answers.shape[0]):
        total += answers[i] * weights[i]
        norm += weights[i]
    out[0] = total / norm


if __name__ == "__main__":
    print(weighted_score(np.ones((5, 10)), np.arange(10.0)))
