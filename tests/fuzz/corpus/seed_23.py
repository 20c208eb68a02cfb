void(float32[:], int64)
from numba import cuda, float32
# pykern: --sig k=void(float32[:], int64)

@cuda.jit
def k(a, n):
    s = cuda.shared.array(shape=n, dtype=float32)
    s[0] = a[0]
