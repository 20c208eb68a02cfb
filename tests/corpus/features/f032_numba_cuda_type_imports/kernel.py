# Types imported as today's numba-cuda exports them (from numba.cuda, and numba.cuda.types),
# in an eager signature and in kernel code.
from numba import cuda
from numba.cuda import void, float32, double, int32
from numba.cuda import types as cuda_types


@cuda.jit(void(float32[::1], double, int32))
def scale_first(a, factor, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] * factor + cuda_types.float32(0.5)
