# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemory.test_shared_bool) by tests/numba_suite/harness.py
from numba import cuda
from numba import bool as dt

nthreads = 16


@cuda.jit
def use_sm_chunk_copy(x, y):
    sm = cuda.shared.array(nthreads, dtype=dt)

    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    bd = cuda.blockDim.x

    # Load this block's chunk into shared
    i = bx * bd + tx
    if i < len(x):
        sm[tx] = x[i]

    cuda.syncthreads()

    # One thread per block writes this block's chunk
    if tx == 0:
        for j in range(nthreads):
            y[bd * bx + j] = sm[j]
