# Seed 000's monte_carlo_pi with random.random(), seeded so that its draws are Numba's exactly
# (Python's and NumPy's generators are separate Mersenne Twisters in Numba, seeded apart);
# tuple items are drawn left to right, as Python evaluates them.
import random
import numpy as np
from numba import jit


@jit
def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x**2 + y**2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


@jit
def seeded_draws(seed, nsamples):
    random.seed(seed)
    np.random.seed(seed + 1)
    pi = monte_carlo_pi(nsamples)
    return pi, random.random(), np.random.random(), (random.random(), np.random.random())[1]
