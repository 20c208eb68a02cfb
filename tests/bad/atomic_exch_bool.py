from numba import cuda
# pykern: --sig k=void(boolean[:])
@cuda.jit
def k(a):
    cuda.atomic.exch(a, 0, True)
