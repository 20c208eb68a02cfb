# A @vectorize ufunc's methods in a @jit function in the forms Numba 0.68 refuses (accumulate,
# outer, several axes of a ufunc without identity, out= as a keyword, NumPy's ufuncs' methods)
# or pykern does not take yet (dtype=, at), and output arrays that
# cannot take the result: each is named where it is called.
import numpy as np
from numba import cuda, njit, vectorize, guvectorize
# pykern: --sig k=void(float64[:], float64[:, :])


@vectorize
def larger(a, b):
    return a if a > b else b


@guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def first(a, out):
    out[0] = a[0]


@njit
def forms(a, m):
    r = larger.accumulate(a)
    o = larger.outer(a, a)
    t = larger.reduce(m, axis=None)
    u = larger.reduce(m, axis=(0, 1))
    v = larger.reduce(m, axis=0, dtype=np.float32)
    w = larger(a, a, out=a)
    x = np.add.reduce(a)
    y = np.maximum.accumulate(a)
    larger.at(a, 0, 1.0)
    z = larger.reduce(3.0)
    q = larger.reduce(m, axis=1.5)
    larger(a, a, 3.0)
    larger(m, m, a)
    pass
    return 0.0


@cuda.jit
def k(a, m):
    a[0] = forms(a, m)
