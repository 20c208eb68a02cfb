"""Column or row totals chosen by the caller; an axis past the array's dimensions is NumPy's
AxisError at the call's line, as Numba raises it."""
import numpy as np
from numba import njit


@njit
def totals_along(table, axis):
    scale = 0.0
    for i in range(table.shape[0]):
        scale += table[i, 0]
    totals = np.sum(table, axis=axis)
    return totals, scale
