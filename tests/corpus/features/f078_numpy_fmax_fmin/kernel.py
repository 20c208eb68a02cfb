# np.fmax and np.fmin: NumPy's maximum and minimum that let a NaN give way to the other operand,
# typed as np.maximum (integers stay integers, float32 with float32 stays float32).
import math
import numpy as np
from numba import cuda


@cuda.jit
def nan_aware(a, b, out, small, ints):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    x = a[i]
    y = b[i]
    if x > 0.6:
        x = math.nan
    if y < -0.6:
        y = math.nan
    out[i, 0] = np.fmax(x, y)
    out[i, 1] = np.fmin(x, y)
    out[i, 2] = np.fmax(x, 0.25) + np.fmax(math.nan, 2.0) * np.fmin(3, 5)
    out[i, 3] = np.fmin(math.nan, y)
    small[i] = np.fmax(np.float32(x), np.float32(y)) + np.fmin(np.float32(x), np.float32(1.5))
    ints[i] = np.fmax(i, 7) * 100 + np.fmin(np.int32(i), np.int32(20))
