# forceobj=True asks for Numba's object mode: refused where the function is compiled.
from numba import cuda, jit

# pykern: --sig k=void(float64[::1])


@jit(forceobj=True)
def plus_one(x):
    return x + 1


@cuda.jit
def k(out):
    out[0] = plus_one(out[0])
