from numba import cuda
# A lambda bound to a name is an inner function; one called where it is written is not.

@cuda.jit
def k(a):
    a[0] = (lambda x: x + 1)(1)
