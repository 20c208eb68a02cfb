void(float32[:], int64, int64)
# Names that are C++ keywords, CUDA qualifiers, macros and runtime names: none may break or
# inject into the emitted C++.
from numba import cuda
# pykern: --sig k=void(float32[:], int64, int64)

@cuda.jit(device=True)
def new(delete, asm):
    NULL = delete + asm
    return NULL

@cuda.jit
def k(int, __global__, INT_MAX):
    printf = cuda.grid(1)
    threadIdx = __global__ + INT_MAX
    pk_tmp0 = 1.5
    if printf < int.size:
        int[printf] = new(threadIdx, pk_tmp0)
