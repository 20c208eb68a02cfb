# math.inf and math.nan in kernels, float64 and float32: they must compile under NVRTC (which
# has no __builtin_huge_val or __builtin_nan) and give IEEE infinities and quiet NaNs.
import math
from numba import cuda, float32


@cuda.jit
def specials(x, out64, out32, flags):
    i = cuda.grid(1)
    if i < x.size:
        out64[i, 0] = math.inf if x[i] > 0 else -math.inf
        out64[i, 1] = math.nan
        out64[i, 2] = min(x[i], math.inf)
        out32[i, 0] = float32(math.inf) * x[i]
        out32[i, 1] = float32(math.nan)
        flags[i, 0] = math.isinf(x[i] * math.inf)
        flags[i, 1] = math.isnan(x[i] + math.nan)
