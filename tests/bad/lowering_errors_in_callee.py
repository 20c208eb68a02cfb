# A statement pykern refuses, in a function a kernel calls: the error is reported however the
# callee is first reached (here while the kernel's types are still being inferred), and the
# statement is never dropped.
from numba import cuda, njit

# pykern: --sig k=void(float64[::1])


@njit
def clamp(x, lock):
    with lock:
        x = min(x, 1.0)
    return x


@cuda.jit
def k(a):
    a[0] = clamp(a[0], a[1])
