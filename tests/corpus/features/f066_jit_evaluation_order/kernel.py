# Python evaluates operands left to right: draws with effects in one expression come out in
# that order (C++ would leave them unsequenced), as arguments of a call and in a tuple too.
import random
from numba import njit


@njit
def pair(x, y):
    return x * 1000.0 + y


@njit
def draws(seed):
    random.seed(seed)
    difference = random.random() - random.random()
    combined = pair(random.random(), random.random())
    quotient = random.random() / (random.random() + 1.0)
    return difference, combined, quotient
