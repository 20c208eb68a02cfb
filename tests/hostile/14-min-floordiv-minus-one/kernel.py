from numba import njit


@njit
def floor_quotient(a, b):
    return a // b + 1
