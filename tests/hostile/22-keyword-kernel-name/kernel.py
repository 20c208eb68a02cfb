from numba import cuda

@cuda.jit
def if(a):
    a[0] = 1
