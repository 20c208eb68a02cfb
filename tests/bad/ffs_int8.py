# numba-cuda types cuda.ffs for 8- and 16-bit integers but lowers it for 32 and 64 bits only.
from numba import cuda
# pykern: --sig k=void(int8[:], uint32[:])
@cuda.jit
def k(a, out):
    out[0] = cuda.ffs(a[0])
