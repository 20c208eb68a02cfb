from numba import cuda
# pykern: --sig k=void(float64[:], xoroshiro128p_type[:])
import numba

@cuda.jit
def k(a, states):
    a[0] = float(2 + 3j)
