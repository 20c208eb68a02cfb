from numba import njit


@njit(parallel=True)
def doubled(x):
    assert x > 0, "x must be positive"
    return x * 2
