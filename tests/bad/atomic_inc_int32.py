# cuda.atomic.inc and dec wrap unsigned counters: numba-cuda types them for uint32 and uint64.
from numba import cuda
# pykern: --sig k=void(int32[:])
@cuda.jit
def k(a):
    cuda.atomic.inc(a, 0, 10)
