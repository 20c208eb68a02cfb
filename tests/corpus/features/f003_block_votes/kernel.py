# Block-wide votes: syncthreads_count/and/or, and the lane id.
from numba import cuda


@cuda.jit
def votes(a, out):
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = cuda.syncthreads_count(a[i] % 3 == 0)
    every = cuda.syncthreads_and(a[i] > -100)
    some = cuda.syncthreads_or(a[i] > 45)
    if t == 0:
        out[cuda.blockIdx.x, 0] = n
        out[cuda.blockIdx.x, 1] = every
        out[cuda.blockIdx.x, 2] = some
    out[cuda.blockIdx.x, 3 + t] = cuda.laneid
