"""A lookup that misses: the @jit helper returns None, and its caller uses the result in
arithmetic without testing it. Numba's CPU target raises TypeError("expected int64, got None")
where the Optional is converted to its value."""
import numpy as np
from numba import njit


@njit
def index_of(keys, key):
    for i in range(keys.shape[0]):
        if keys[i] == key:
            return i
    return None


@njit
def offset_of(keys, key, stride):
    return index_of(keys, key) * stride + 1
