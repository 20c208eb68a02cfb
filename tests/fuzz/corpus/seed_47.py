void(float64[:])
from numba import cuda

@cuda.jit
def k(*args):
    pass
