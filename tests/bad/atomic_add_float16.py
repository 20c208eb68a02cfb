# numba-cuda types cuda.atomic.add for 32- and 64-bit integers and floats only (cudadecl.py);
# a float16 array is refused at typing, not by NVRTC with an internal error.
from numba import cuda
# pykern: --sig k=void(float16[:])
@cuda.jit
def k(a):
    cuda.atomic.add(a, 0, 1)
