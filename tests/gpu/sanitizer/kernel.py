# The seed's compute-sanitizer example (s001_add_1_debug_oob) built with lineinfo=True instead of
# debug=True, so the out-of-bounds write really happens and compute-sanitizer reports it; its
# report must name this file and the line of `x[i] += 1`.
from numba import cuda


@cuda.jit(lineinfo=True)
def add_1(x):
    i = cuda.grid(1)
    # Off-by-one - accesses beyond end of array
    if i > x.shape[0]:
        return
    x[i] += 1
