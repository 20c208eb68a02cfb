# float16 arrays and scalars, Python's operators on them, numba.cuda.fp16's intrinsics and the
# math functions numba-cuda types float16 -> float16. Each result is rounded once to float16.
# (Numba's simulator computes hfloor with ceil and rounds hfma's product first, so neither is
# here; tests/unit/test_runtime.cpp checks both against the GPU's rule.)
import math
import numpy as np
from numba import cuda


@cuda.jit
def half_precision(a, b, out, flags, s):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x + y
        out[i, 1] = x * y - s
        out[i, 2] = x / y
        out[i, 3] = -x
        out[i, 4] = cuda.fp16.hadd(x, y)
        out[i, 5] = cuda.fp16.hmul(x, s)
        out[i, 6] = cuda.fp16.hsqrt(cuda.fp16.habs(x))
        out[i, 7] = cuda.fp16.hmax(x, y)
        out[i, 8] = cuda.fp16.hmin(x, y)
        out[i, 9] = math.sqrt(abs(x))
        out[i, 10] = math.exp(y)
        out[i, 11] = cuda.fp16.hceil(x)
        out[i, 12] = cuda.fp16.htrunc(y)
        out[i, 13] = np.float16(i) * np.float16(0.1)
        flags[i, 0] = cuda.fp16.hlt(x, y)
        flags[i, 1] = cuda.fp16.hge(x, y)
        flags[i, 2] = x == y
