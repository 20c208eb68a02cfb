# numba-cuda compiles no exception handling: a try statement is refused in a kernel, in a
# device function, and in a @jit function a kernel calls (a @jit function called on the host
# may have one).
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@cuda.jit(device=True)
def device_guarded(x):
    try:
        return 1.0 / x
    except Exception:
        return 0.0


@njit
def jit_guarded(x):
    try:
        return 1.0 / x
    finally:
        x = 0.0


@cuda.jit
def k(a):
    a[0] = device_guarded(a[1]) + jit_guarded(a[2])
