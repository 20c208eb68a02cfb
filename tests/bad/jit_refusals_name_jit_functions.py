# What lowering and typing refuse in a @jit function says "in @jit functions", not "in kernels".
from numba import cuda, njit

# pykern: --sig k=void(float64[::1])


@njit
def helper(x):
    s = {1, 2}
    with open("log.txt") as f:
        x = x + 1.0
    return x


@cuda.jit
def k(out):
    out[0] = helper(out[0])
