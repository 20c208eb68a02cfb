# numba-cuda's match_any_sync compares int32, int64, float32 or float64 values; a complex one has
# none of those to convert to.
from numba import cuda
# pykern: --sig k=void(complex64[:], uint32[:])
@cuda.jit
def k(a, out):
    out[0] = cuda.match_any_sync(0xffffffff, a[0])
