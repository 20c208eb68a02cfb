# The cmath module on complex128 and complex64 (computed as numba-cuda computes it, CPython's
# algorithms), with real arguments converted, predicates, phase/polar/rect and log with a base.
import cmath
from numba import cuda


@cuda.jit(device=True)
def all_of(z):
    return (cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.log10(z), cmath.cos(z), cmath.sin(z),
            cmath.tan(z), cmath.cosh(z), cmath.sinh(z), cmath.tanh(z), cmath.acos(z), cmath.asin(z),
            cmath.atan(z), cmath.acosh(z), cmath.asinh(z), cmath.atanh(z), cmath.log(z, z * z))


@cuda.jit
def cmath_functions(z, z32, out, out32, parts, flags):
    i = cuda.grid(1)
    if i < z.shape[0]:
        r = all_of(z[i])
        for k in range(len(r)):
            out[i, k] = r[k]
        r32 = all_of(z32[i])
        for k in range(len(r32)):
            out32[i, k] = r32[k]
        m, p = cmath.polar(z[i])
        parts[i, 0] = m
        parts[i, 1] = p
        parts[i, 2] = cmath.phase(z[i])
        w = cmath.rect(m, p)
        parts[i, 3] = w.real
        parts[i, 4] = w.imag
        parts[i, 5] = cmath.sqrt(z[i].real).real
        flags[i, 0] = cmath.isnan(z[i])
        flags[i, 1] = cmath.isinf(z[i])
        flags[i, 2] = cmath.isfinite(z[i])
