from numba import cuda
# pykern: --sig k=void(float32[:])

@cuda.jit
def k(a):
    x = 1
    if a[0] > 0:
        x = a
    a[0] = x
