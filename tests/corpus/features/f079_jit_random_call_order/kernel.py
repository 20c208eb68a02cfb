# Draws from Python's and NumPy's generators inside one call's arguments come out left to
# right, as Python evaluates them: math.atan2(uniform(), uniform()) equals the same code split
# into two assignments (C++ leaves a call's arguments unsequenced).
import math
import random
import numpy as np
from numba import njit


@njit
def draws(seed):
    random.seed(seed)
    nested = math.atan2(random.uniform(0.0, 1.0), random.uniform(10.0, 11.0))
    random.seed(seed)
    y = random.uniform(0.0, 1.0)
    x = random.uniform(10.0, 11.0)
    split = math.atan2(y, x)
    np.random.seed(seed + 1)
    mixed = math.hypot(np.random.normal(0.0, 1.0), random.gauss(5.0, 2.0)) - np.random.uniform(0.0, 1.0)
    ints = max(random.randrange(1000), random.randint(0, 1000) * 1000, np.random.randint(0, 1000) * 1000000)
    return nested, split, mixed, ints
