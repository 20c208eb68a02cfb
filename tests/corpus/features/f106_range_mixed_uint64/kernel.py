# range() over a uint64 count mixed with int64 bounds: Numba's overload resolution (range's
# int32, int64 and uint64 signatures; a literal counts as int64) ties int64 and uint64 for
# range(0, uint64) and range(int64(0), uint64) and keeps the earlier, int64 signature, so the
# index is signed: j - i and -j are negative numbers, not huge unsigned ones. range(uint64)
# alone counts in uint64; range(int32(0), uint64) in int32.
import numpy as np
from numba import cuda

BAND = 2


@cuda.jit
def band_cells(lengths, offsets, cells, diag):
    s = cuda.grid(1)
    if s >= lengths.shape[0]:
        return
    n = lengths[s]
    count = 0
    for i in range(0, n):
        for j in range(np.int64(0), n):
            if abs(i - j) <= BAND:
                count += 1
    cells[s] = count
    back = 0
    for k in range(0, n, 1):
        back += -k
    for k in range(n, 0, -1):
        back += (k - n) * 2
    for k in range(np.int32(0), n):
        back += k // 3
    for k in range(n):
        back += k % 4
    diag[s, 0] = back
    diag[s, 1] = offsets[s] - n if n > 0 else 0
