# cuda.clz and cuda.popc count at the value's own width and keep its type (numba-cuda lowers them
# to llvm.ctlz/ctpop on that type); cuda.ffs answers uint32 for 32- and 64-bit integers; cuda.brev
# takes uint32 or uint64 and converts every other integer to uint32 first (an int64 keeps its low
# half). Numba's simulator counts Python ints instead (clz(int8(1)) is 31 there, popc(int8(-1)) is
# 1): case.json's "compiled" entries hold what numba-cuda's GPU code computes.
from numba import cuda


@cuda.jit
def bit_operations(s8, u8, s16, w32, w64, b64, u64, out, rev64):
    for i in range(s8.size):
        out[i, 0] = cuda.clz(s8[i])
        out[i, 1] = cuda.popc(s8[i])
    for i in range(u8.size):
        out[i, 2] = cuda.clz(u8[i])
        out[i, 3] = cuda.popc(u8[i])
        out[i, 4] = cuda.brev(u8[i])
    for i in range(s16.size):
        out[i, 5] = cuda.clz(s16[i])
        out[i, 6] = cuda.popc(s16[i])
    for i in range(w32.size):
        out[i, 7] = cuda.clz(w32[i])
        out[i, 8] = cuda.popc(w32[i])
        out[i, 9] = cuda.ffs(w32[i])
    for i in range(w64.size):
        out[i, 10] = cuda.clz(w64[i])
        out[i, 11] = cuda.popc(w64[i])
        out[i, 12] = cuda.ffs(w64[i])
    for i in range(b64.size):
        out[i, 13] = cuda.brev(b64[i])
    for i in range(u64.size):
        rev64[i] = cuda.brev(u64[i])
