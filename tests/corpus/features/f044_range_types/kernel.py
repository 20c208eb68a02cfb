# The loop index of range(...) takes the integer type Numba's overload resolution picks among
# range's int32, int64 and uint64 signatures: range(uint32) counts in uint64, range(0, uint64)
# in int64 (the literal counts as int64: a tie with uint64, and the int64 signature comes
# first; features/f106 shows the sign), range(int32) in int32. Whatever the type, the values
# are integers: printed as integers and usable as indices.
import numpy as np
from numba import cuda


@cuda.jit
def range_types(n, out):
    for i in range(np.uint32(n)):
        out[0, i] = i // 2
        print("u32", i, i // 2, i % 3)
    for j in range(0, np.uint64(n)):
        out[1, j] = j * 3
        print("u64", j)
    for e in range(np.int32(n)):
        out[2, e] = -e // 2
        print("i32", e, -e // 2)
    for s in range(np.uint16(n), 0, -1):
        out[3, s - 1] = s
        print("u16 down", s)
    held = range(np.int32(1), np.int32(n), 2)
    for t in held:
        print("held", t, len(held))
