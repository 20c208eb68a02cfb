# assert in a @jit function is checked on every call (Numba's CPU target); without a message
# the AssertionError has none.
from numba import njit


@njit
def running_minimum(a):
    best = a[0]
    for i in range(1, a.shape[0]):
        assert a[i] >= 0
        if a[i] < best:
            best = a[i]
    return best
