void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    b = [x for x in range(3)]
