from numba import cuda
# pykern: --sig k=void(int64[:], int64)

@cuda.jit
def k(out, s):
    out[0] = s.bit_count(3)
