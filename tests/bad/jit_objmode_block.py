# An objmode block runs its body in the Python interpreter, which pykern does not have: a
# located error at the block, in a @jit function a kernel calls.
from numba import cuda, njit, objmode

# pykern: --sig k=void(float64[::1])


@njit
def logged(x):
    with objmode(y='float64'):
        y = x * 2.0
    return x


@cuda.jit
def k(out):
    out[0] = logged(out[0])
