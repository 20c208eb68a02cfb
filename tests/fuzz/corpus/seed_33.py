void(float64[:])
from numba import cuda

@cuda.jit(fast=True)
def k(a):
    a[0] = 1
