# A name that holds values of different types at different times, as Numba's SSA versions
# allow: a loop index over uint64 then int64 ranges, a view rebound to another shape inside a
# loop, a scalar reused as a float after its int life ends, and a tuple target reused.
import numpy as np
from numba import cuda


@cuda.jit
def versions(flat, out):
    i = cuda.grid(1)
    if i == 0:
        s = np.uint32(3)
        for k in range(s):
            out[k] = k * 2
        for k in range(s, 6):
            out[k] = k - 10
        v = flat
        for r in range(1):
            v = v.reshape(12)
            v = v.reshape(4, 3)
        out[6] = v[3, 2] + v.shape[0] * 100
        t = 7
        out[7] = t // 2
        t = 2.5
        out[8] = t * 3
        a, b = 1, 2.5
        out[9] = a + b
        a, b = 0.25, 4
        out[10] = a * b
