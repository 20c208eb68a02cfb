# A name that holds a C array on one path and a strided view on another is typed layout A:
# the C view converts to it (before, the host compiler and NVRTC refused the conversion).
from numba import cuda

# pykern: --sig pick=void(float64[::1], float64[::1], boolean)


@cuda.jit
def pick(a, out, whole):
    if whole:
        x = a
    else:
        x = a[::2]
    out[0] = x[0] + x.shape[0]
