void(float64[:])
from numba import cuda

@cuda.jit("void(float32[:,::2])")
def k(a):
    a[0] = 1
