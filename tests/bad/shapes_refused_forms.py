# NumPy's array building and reshaping functions in a @jit function, in the forms Numba 0.68
# refuses or pykern does not have yet: each is named where it is called.
import numpy as np
from numba import cuda, njit
# pykern: --sig k=void(float64[:], float64[:, :], int64)


@njit
def forms(a, m, n):
    t = np.tile(a, 3)
    b = np.array(a)
    c = np.array(3.0)
    d = np.array([[1.0, 2.0], [3.0]])
    e = np.array([a, a])
    f = np.linspace(0.0, 1.0, 5, endpoint=False)
    g = np.linspace(0.0, 1.0, 2.5)
    h = np.concatenate([a, a])
    i = np.concatenate((a, m))
    j = np.append(m, m, axis=0)
    k = np.repeat(a, a)
    l = np.flip(m, 0)
    o = np.fliplr(a)
    p = np.roll(a, 1, axis=0)
    q = np.transpose(m, (0, 2, 1))
    r = a.astype(float)
    s = np.atleast_2d(a, n)
    u = np.stack((a, n))
    w = np.expand_dims(a, 1.0)
    x = np.array([1.0, [2.0, 3.0]])
    y = np.array([[1.0, 2.0], [[3.0], [4.0]]])
    return 0


@cuda.jit
def k(a, m, n):
    a[0] = forms(a, m, n)
