# float() of a literal parses it as Python does; a string that is no number is Python's ValueError.
from numba import cuda

# pykern: --sig clip=void(float64[::1])


@cuda.jit
def clip(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = min(a[i], float("1.5 e3"))
