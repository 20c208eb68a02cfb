# @njit(error_model='numpy'): divisions by zero give inf, nan and 0 instead of raising, as in
# NumPy (and as CUDA kernels always do).
from numba import njit


@njit(error_model='numpy')
def quiet(x, n):
    return x / 0.0, -x / 0.0, 0.0 / 0.0 * x, n // 0, n % 0, x % 0.0
