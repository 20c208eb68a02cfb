# @jit on the CPU uses Python's error model: a division by zero raises ZeroDivisionError, with
# Numba's message for the operation ("integer division by zero" for int //).
from numba import njit


@njit
def ratios(a, b):
    total = 0
    for i in range(a.shape[0]):
        total += a[i] // b[i]
    return total
