void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    d = {1: 2}
