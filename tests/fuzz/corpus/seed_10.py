void(float64[:])
from numba import cuda
counter = 0

@cuda.jit
def k(a):
    global counter
    counter += 1
