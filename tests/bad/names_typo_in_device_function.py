# A device function is checked with the kernel that calls it, signature or not; one no kernel
# calls is compiled by neither Numba nor pykern, so its mistakes are only warnings.
from numba import cuda

SCALE = 2.0


@cuda.jit(device=True)
def scaled(x):
    factor = SCALE
    return x * factr


@cuda.jit(device=True)
def never_called(x):
    return x + undefined_too


@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = scaled(a[i])
