"""Saturating conversions for an image pipeline.

Each output type's limits come from np.iinfo / np.finfo, read at import into
module constants (and once inside the kernel, from the argument's dtype).
"""
import numpy as np
from numba import cuda

F16 = np.finfo(np.float16)
F32 = np.finfo(np.float32)
F64 = np.finfo(np.float64)
F32_FIELDS = (F32.eps, F32.epsneg, F32.max, F32.min, F32.tiny, F32.smallest_normal, F32.resolution)
F64_FIELDS = (F64.eps, F64.epsneg, F64.max, F64.min, F64.tiny, F64.resolution)
F16_FIELDS = (F16.eps, F16.max, F16.tiny)
FLOAT_INTS = (F32.bits, F32.precision, F32.maxexp, F32.minexp, F32.nmant, F32.nexp, F32.machep, F32.negep,
              F64.bits, F64.precision, F64.maxexp, F64.minexp, F64.nmant, F64.nexp,
              F16.bits, F16.precision, F16.maxexp, F16.minexp)
INT_LIMITS = (np.iinfo(np.int8).min, np.iinfo(np.int8).max, np.iinfo(np.uint8).max,
              np.iinfo(np.int16).min, np.iinfo("int16").max, np.iinfo(np.uint16).max,
              np.iinfo(np.int32).min, np.iinfo(np.int32).max, np.iinfo(np.uint32).max,
              np.iinfo(np.int64).min, np.iinfo(np.int64).max, np.iinfo(np.uint32).bits)
U64_MAX = np.iinfo(np.uint64).max
COMPLEX_EPS = np.finfo(np.complex64).eps


@cuda.jit
def limits(pixels, floats, ints, u64, clipped):
    i = cuda.grid(1)
    if i == 0:
        for k in range(len(F32_FIELDS)):
            floats[k] = F32_FIELDS[k]
        for k in range(len(F64_FIELDS)):
            floats[7 + k] = F64_FIELDS[k]
        for k in range(len(F16_FIELDS)):
            floats[13 + k] = F16_FIELDS[k]
        floats[16] = COMPLEX_EPS
        floats[17] = np.finfo(pixels.dtype).eps
        for k in range(len(FLOAT_INTS)):
            ints[k] = FLOAT_INTS[k]
        for k in range(len(INT_LIMITS)):
            ints[len(FLOAT_INTS) + k] = INT_LIMITS[k]
        u64[0] = U64_MAX
    if i < pixels.shape[0]:
        v = pixels[i] * 300.0
        hi = np.iinfo(np.uint8).max
        if v > hi:
            v = hi
        if v < 0:
            v = 0
        clipped[i] = v
