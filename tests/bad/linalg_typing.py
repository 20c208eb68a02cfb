# np.dot, '@' and np.linalg in @njit functions: Numba's typing errors (integer operands, mixed
# dtypes, wrong dimensions, non-arrays, bad keywords), each at its call. (A kernel calls the
# function so that it is typed; its own refusal of '@' follows.)
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:, :], float32[:], int64[:, :], float64[:, :, :])


@njit
def algebra(a, v, ints, cube):
    p = np.dot(ints, ints)
    q = a @ v
    r = np.dot(a, cube)
    s = np.linalg.inv(v)
    t = np.linalg.det(ints)
    u = np.linalg.solve(a, v)
    w = np.vdot(a, a)
    x = np.linalg.norm(cube)
    y = np.trace(a, offset=1.5)
    z = np.linalg.lstsq(a, a, rcond=-1.0, other=1)
    o = np.outer(v, 2.0)
    m = np.linalg.inv()
    n = np.dot(2.0, a)
    return 0.0


@cuda.jit
def k(a, v, ints, cube):
    a[0, 0] = algebra(a, v, ints, cube)
    b = a @ a
