void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    def helper(x):
        return x
    a[0] = helper(1)
