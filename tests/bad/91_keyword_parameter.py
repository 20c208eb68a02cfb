# CPython: SyntaxError, 'None' is a keyword, not a parameter name.
from numba import cuda

@cuda.jit
def k(a, None):
    a[0] = 1
