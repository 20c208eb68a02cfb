# Under Python's error model (the default of @jit functions), a negative integer power of
# zero raises ZeroDivisionError with Numba's message, at the line of the power.
from numba import njit


@njit
def inverse_powers(bases, exponent):
    total = 0
    for i in range(bases.shape[0]):
        total += bases[i] ** exponent
    return total
