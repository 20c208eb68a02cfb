# CPython: SyntaxError, duplicate argument 'a' in function definition (it reached NVRTC).
from numba import cuda

@cuda.jit
def k(a, a):
    a[0] = 1
