# Integer arithmetic at its edges, where C++ is undefined and Python/NumPy are not: shifts by
# counts outside [0, 64), MIN // -1, MIN % -1, division by zero (0 under Numba's error model),
# negation and products that wrap.
from numba import cuda


@cuda.jit
def integer_edges(x, s, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = x[i] << s[i]
        out[i, 1] = x[i] >> s[i]
        out[i, 2] = x[i] // s[i]
        out[i, 3] = x[i] % s[i]
        out[i, 4] = -x[i]
        out[i, 5] = x[i] * s[i]
        out[i, 6] = x[i] + x[i]
        out[i, 7] = abs(x[i])
