void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    if (n := 3) > 2:
        a[0] = n
