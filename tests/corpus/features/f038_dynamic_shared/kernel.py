# Dynamic shared memory: cuda.shared.array(0, dtype) views the bytes the launch asks for
# (kernel[grid, block, stream, bytes]); two such arrays of one kernel alias, as in CUDA.
from numba import cuda, float32, int32


@cuda.jit
def reverse_blocks(a, sizes):
    tile = cuda.shared.array(0, dtype=float32)
    words = cuda.shared.array(0, dtype=int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tile[t] = a[i]
    cuda.syncthreads()
    a[i] = tile[cuda.blockDim.x - 1 - t]
    cuda.syncthreads()
    if t == 0:
        sizes[cuda.blockIdx.x, 0] = tile.size
        sizes[cuda.blockIdx.x, 1] = words.size
        words[2] = 1065353216  # the bits of 1.0 as a float32: the arrays alias
        sizes[cuda.blockIdx.x, 2] = tile[2] == 1.0
