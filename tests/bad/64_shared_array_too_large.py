from numba import cuda
# pykern: --sig k=void(float64[:], xoroshiro128p_type[:])
import numba

@cuda.jit
def k(a, states):
    tile = cuda.shared.array((65536, 65536, 65536), numba.float32)
    tile[0, 0, 0] = 1
