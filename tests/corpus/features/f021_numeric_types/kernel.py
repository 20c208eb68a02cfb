# Narrow and unsigned integers, bools, complex numbers and math functions, typed as Numba types them.
# (uint8 + uint8 and bool + bool are left out: Numba's simulator computes them with NumPy scalars,
# which wrap at 8 bits and give True, while numba-cuda and pykern widen them to 64-bit integers.)
import math

from numba import cuda, int8, uint8


@cuda.jit
def numeric(small, bytes_, flags, z, x, ints, floats, zs):
    i = cuda.grid(1)
    if i < small.size:
        s = small[i]
        b = bytes_[i]
        ints[i, 0] = s * 3             # int8 * int64 literal: int64, no wrap
        ints[i, 1] = b * 2             # uint8 * int64 literal: int64
        ints[i, 2] = int8(s * 100)     # explicit narrowing wraps
        ints[i, 3] = uint8(b - 200)    # unsigned wrap
        ints[i, 4] = 1 if flags[i] else 0
        ints[i, 5] = -s // 3
        ints[i, 6] = abs(s) % 7
        ints[i, 7] = s << 2
        ints[i, 8] = b >> 3
        ints[i, 9] = ~s
        floats[i, 0] = math.sqrt(abs(x[i])) + math.atan2(x[i], 2.0)
        floats[i, 1] = math.floor(x[i]) + math.ceil(x[i]) + math.trunc(x[i])
        floats[i, 2] = math.exp(x[i] / 10) - math.log1p(abs(x[i]))
        floats[i, 3] = math.hypot(x[i], s) + math.copysign(1.5, x[i])
        floats[i, 4] = x[i] if flags[i] else -x[i]
        floats[i, 5] = abs(z[i])
        w = z[i] * z[i] + 1j
        zs[i] = w / (z[i] + 2)
        floats[i, 6] = w.real - w.imag
