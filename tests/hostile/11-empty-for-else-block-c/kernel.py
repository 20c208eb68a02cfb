from numba import cuda

@cuda.jit
def k(a):
    for i in range(a.size):
        for j in range(2):
        a[i] = j
    else:
    a[0] = 2
