# Shifts are typed by their left operand (Numba's BitwiseShiftOperation): a uint64 shifted by
# an int64 or by an int literal stays uint64 and >> is a logical shift, so hash mixing in the
# SplitMix64 style (z ^ (z >> 30)) keeps the top bits clear, (h << 1) > 0 compares unsigned
# values, and a loop-carried uint64 code stays uint64 through code = (code << 2) | base.
import numpy as np
from numba import cuda

MIX = np.uint64(0x5851F42D4C957F2D)


@cuda.jit
def mix_keys(keys, bases, bits, hashed, bucket, flags):
    i = cuda.grid(1)
    if i >= keys.shape[0]:
        return
    z = keys[i]
    z = z ^ (z >> 31)
    z = z * MIX
    z = z ^ (z >> 29)
    hashed[i] = z
    bucket[i] = z >> (64 - bits)
    flags[i, 0] = (z << 1) > 0
    flags[i, 1] = (keys[i] >> 1) > 0
    flags[i, 2] = (z >> 63) == 1
    code = keys[i] & np.uint64(0)
    for k in range(4):
        code = (code << 2) | bases[i, k]
    flags[i, 3] = code
