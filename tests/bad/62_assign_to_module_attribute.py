from numba import cuda
# pykern: --sig k=void(float64[:], xoroshiro128p_type[:])
import numba

@cuda.jit
def k(a, states):
    cuda.p = 1
