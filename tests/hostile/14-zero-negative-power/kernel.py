from numba import njit


@njit
def power(base, exponent):
    return base ** exponent
