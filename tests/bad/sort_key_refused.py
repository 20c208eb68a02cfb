# A sort key is an @njit function or a lambda that reads only its argument, as in Numba
# ("Key must be None or a Numba JIT compiled function"; a lambda that captures a variable
# "may escape"); its keys must compare with '<'.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[:])


@njit
def as_array(x):
    return np.ones(3) * x


@njit
def run(a):
    values = [3.0, -1.0, 2.0]
    values.sort(key=abs)
    centre = a[0]
    near = sorted(values, key=lambda v: v - centre)
    arrays = sorted(values, key=as_array)
    return values[0] + near[0] + arrays[0]


@cuda.jit
def k(a):
    a[0] = run(a)
