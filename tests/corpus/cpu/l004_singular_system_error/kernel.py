import numpy as np
from numba import njit


@njit
def interpolate(nodes, values):
    # Two equal nodes make the Vandermonde system singular: Numba's LinAlgError at the solve.
    n = nodes.shape[0]
    a = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            a[i, j] = nodes[i] ** j
    return np.linalg.solve(a, values)
