# In a kernel: atomics and device functions that write memory, read left to right as Python
# reads them, against element reads in the same expression.
from numba import cuda


@cuda.jit(device=True)
def bump(a):
    a[0] = a[0] + 100.0
    return 1.0


@cuda.jit
def ordered(counter, a, out):
    out[0] = cuda.atomic.add(counter, 0, 1) * 10 + cuda.atomic.add(counter, 0, 1)
    out[1] = a[0] + bump(a)
    out[2] = bump(a) + a[0]
    out[3] = a[0] * 2.0 + bump(a) * 3.0 + a[0]
