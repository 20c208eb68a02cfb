from numba import cuda
# pykern: --sig k=void(int64)
# *args is a device function's (numba-cuda packs the extra arguments in a tuple); a kernel
# launched from the host takes named parameters.

@cuda.jit
def k(*args):
    pass
