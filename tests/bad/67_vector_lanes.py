from numba import cuda
# pykern: --sig k=void(float32[:])

@cuda.jit
def k(a):
    v = cuda.float32x2(a[0], a[1])
    a[0] = v.w
    w = cuda.float32x4(v, 1.0)
