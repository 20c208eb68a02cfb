from numba import cuda
# pykern: --sig k=void(int32[:, :])
@cuda.jit
def k(a):
    cuda.atomic.compare_and_swap(a, 0, 1)
