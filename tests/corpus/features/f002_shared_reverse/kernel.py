# Threads exchange data through shared memory across a barrier.
from numba import cuda, float32

N = 128


@cuda.jit
def reverse_blocks(a):
    tile = cuda.shared.array(N, dtype=float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    tile[t] = a[base + t]
    cuda.syncthreads()
    a[base + t] = tile[N - 1 - t] * 2
