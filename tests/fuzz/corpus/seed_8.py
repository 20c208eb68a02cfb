void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    a[0] = sum(x for x in range(3))
