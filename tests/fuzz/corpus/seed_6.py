void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    f = lambda x: x + 1
    a[0] = f(1)
