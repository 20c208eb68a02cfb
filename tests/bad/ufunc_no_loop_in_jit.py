# A @vectorize with signatures, called from a @jit function with operands no loop takes
# (Numba: NumbaTypeError "cannot call ... with types ..."), and with out= as a keyword (Numba's
# AssertionError); a @guvectorize gufunc called from one without its output (Numba allocates none).
import numpy as np
from numba import cuda, njit, vectorize, guvectorize

# pykern: --sig k=void(complex128[::1], float64[::1])


@vectorize(['float32(float32)', 'float64(float64)'])
def scale(x):
    return x * 3.0


@guvectorize(['void(float64[:], float64[:])'], '(n)->()')
def first(a, out):
    out[0] = a[0]


@njit
def scaled(z, x):
    return scale(z) + scale(x, out=x) + first(x)


@cuda.jit
def k(z, x):
    x[0] = scaled(z[0], x[0]).real
