# A literal past 2**64 - 1 has no Numba type: Numba refuses it ("Int value is too large").
from numba import cuda

# pykern: --sig mix=void(uint64[::1])


@cuda.jit
def mix(h):
    i = cuda.grid(1)
    if i < h.size:
        h[i] = h[i] ^ 0x1_0000_0000_0000_0000
