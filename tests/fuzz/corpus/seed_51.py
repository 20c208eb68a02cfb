void(complex128[:])
from numba import cuda
# pykern: --sig k=void(complex128[:])

@cuda.jit
def k(a):
    if a[0] < a[1]:
        a[0] = 0
