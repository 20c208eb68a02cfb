# NumPy forms Numba 0.68 refuses in @njit functions, beside the axis permutations, np.round
# with decimals, ufunc output arrays and np.linalg's eig family it has: axes that do not
# match the array, a list of axes, a non-integer axis, booleans rounded, a ufunc's out= and
# where= keywords, an output array of another kind or fewer dimensions, a non-integer matrix
# power, eig of an integer matrix and a string condition-number order. (A kernel calls the
# function so that it is typed.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], int64[:, :], boolean[:])


@njit
def f(a, i, m):
    few = np.transpose(a, (1, 0, 2))
    listed = np.transpose(a, [1, 0])
    half = np.swapaxes(a, 0.5, 1)
    truth = np.round(m, 1)
    keyword = np.add(a, a, out=a)
    masked = np.sqrt(a, where=m)
    narrowed = np.add(a, 1.5, i)
    flat = np.add(a, a, m)
    power = np.linalg.matrix_power(a, 2.0)
    values = np.linalg.eig(i)
    order = np.linalg.cond(a, 'fro')
    return 0.0


@cuda.jit
def k(a, i, m):
    a[0, 0] = f(a, i, m)
