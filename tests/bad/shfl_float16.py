# numba-cuda's shuffles move int32, int64, float32 and float64 values only.
from numba import cuda
# pykern: --sig k=void(float16[:])
@cuda.jit
def k(a):
    a[0] = cuda.shfl_sync(0xffffffff, a[0], 0)
