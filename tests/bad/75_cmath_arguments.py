import cmath
from numba import cuda
# pykern: --sig k=void(complex128[:], float64, int64)

@cuda.jit
def k(out, x, n):
    out[0] = cmath.cosh(x)
    out[1] = cmath.rect(n, x)
    out[2] = cmath.sqrt(out[0], out[1])
