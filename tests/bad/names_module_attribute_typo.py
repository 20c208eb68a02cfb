# Misspelt attributes of numba.cuda, looked up without types (Numba: "Unknown attribute 'gird'
# of type Module(<module 'numba.cuda'>)"), and a misspelt name imported from it.
import math
from numba import cuda
from numba.cuda import syncthread


@cuda.jit
def k(a):
    i = cuda.gird(1)
    cuda.atomic.ad(a, 0, 1.0)
    a[i] = math.sqroot(a[i]) + cuda.threadIdx.w
    syncthread()
