void(float64[:])
from numba import cuda

@cuda.jit
def k(a):
    try:
        a[0] = 1
    except Exception:
        pass
