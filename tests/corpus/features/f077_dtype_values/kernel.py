# Dtypes as values where Python passes them: a dtype's name, np.dtype(...) and an array's
# .dtype give cuda.local.array its element type (Numba's parse_dtype), and a.view() takes
# np.dtype(...) and another array's .dtype.
import numpy as np
from numba import cuda


@cuda.jit
def dtypes(a, bits, out, same):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    named = cuda.local.array(2, "float64")
    coded = cuda.local.array(2, np.dtype("f4"))
    like = cuda.local.array(2, dtype=a.dtype)
    ints = cuda.local.array(shape=2, dtype=np.dtype(np.int32))
    named[0] = a[i] / 3.0
    coded[0] = a[i] / 3.0
    like[0] = a[i] / 3.0
    ints[0] = a[i] * 100.0
    out[i, 0] = named[0]
    out[i, 1] = coded[0]
    out[i, 2] = like[0]
    out[i, 3] = ints[0]
    as_int = a.view(np.dtype("int32"))
    as_bits = a.view(bits.dtype)
    same[i] = as_int[i] == np.int32(as_bits[i])
    bits[i] = as_bits[i] >> 16
