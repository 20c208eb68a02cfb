from numba import cuda
# pykern: --sig k=void(float64[:], xoroshiro128p_type[:])
import numba

@cuda.jit
def k(a, states):
    scratch = cuda.local.array(100000, numba.float64)
    scratch[0] = 1
    a[0] = scratch[0]
