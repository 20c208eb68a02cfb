# A @guvectorize gufunc called from a @jit function in the forms Numba 0.68 refuses (no outputs:
# it allocates none there; out= as a keyword; an argument too many; no loop of its signatures
# for the operands) and numba.literally() of a value that has no literal; each is named where
# it is called. The function is reached from a kernel, so each call is checked.
import numpy as np
from numba import cuda, njit, guvectorize, literally, float64

# pykern: --sig k=void(float64[::1])


@guvectorize([(float64[:], float64, float64[:])], '(n),()->(n)')
def scaled(x, w, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * w


@njit
def forms(a):
    scaled(a, 2.0)
    scaled(a, 2.0, out=a)
    scaled(a, 2.0, a, a)
    scaled(a, 1j, a)
    return literally(2.5)


@cuda.jit
def k(a):
    a[0] = forms(a)
