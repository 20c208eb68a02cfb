# Numba's CPU random distributions, bit-exact after seeding: random.uniform/gauss/randrange/
# randint and np.random.uniform/normal/standard_normal/randint, each module's stream apart.
import random
import numpy as np
from numba import njit


@njit
def draws(seed, out, ints):
    random.seed(seed)
    np.random.seed(seed + 7)
    for i in range(out.shape[0] // 8):
        out[8 * i] = random.uniform(-2.0, 3.0)
        out[8 * i + 1] = random.gauss(1.5, 0.25)
        out[8 * i + 2] = random.normalvariate(0, 2)
        out[8 * i + 3] = np.random.uniform()
        out[8 * i + 4] = np.random.uniform(10, 20)
        out[8 * i + 5] = np.random.normal()
        out[8 * i + 6] = np.random.normal(5.0, 3.0)
        out[8 * i + 7] = np.random.standard_normal()
    for i in range(ints.shape[0] // 6):
        ints[6 * i] = random.randrange(10)
        ints[6 * i + 1] = random.randrange(-50, 50)
        ints[6 * i + 2] = random.randrange(100, 0, -7)
        ints[6 * i + 3] = random.randint(1, 6)
        ints[6 * i + 4] = np.random.randint(1000)
        ints[6 * i + 5] = np.random.randint(-3, 3)
    return random.randrange(1 << 40), np.random.randint(0, 1 << 40)
