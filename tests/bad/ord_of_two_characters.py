# ord() takes one character, as Python's does.
from numba import cuda

CODES = (ord("A"), ord("CG"))

# pykern: --sig first=void(int64[::1])


@cuda.jit
def first(out):
    out[0] = CODES[1]
