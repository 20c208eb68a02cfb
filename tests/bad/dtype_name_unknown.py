# A dtype given by name must name a NumPy dtype, as np.dtype() reads it.
from numba import cuda
# pykern: --sig k=void(float32[:])
@cuda.jit
def k(a):
    scratch = cuda.local.array(4, "float99")
    scratch[0] = a[0]
    a[0] = scratch[0]
