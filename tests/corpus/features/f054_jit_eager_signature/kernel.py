# Seed 004: an eager signature, float64(int32, int32): the arguments convert to int32 and the
# result is a float64, whatever the caller passes; a tuple back from an @njit function.
from numba import jit, njit, int32, float64


@jit(float64(int32, int32))
def f(x, y):
    # A somewhat trivial example
    return (x + y) / 3.14


@njit
def divmod_both(a, b):
    return a // b, a % b, f(a, b)
