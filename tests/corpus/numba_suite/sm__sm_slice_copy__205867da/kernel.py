# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemory.test_issue_5073) by tests/numba_suite/harness.py
from numba import cuda
from numba import int64 as dt




@cuda.jit
def sm_slice_copy(x, y, chunksize):
    dynsmem = cuda.shared.array(0, dtype=dt)
    sm1 = dynsmem[0:chunksize]
    sm2 = dynsmem[chunksize : chunksize * 2]

    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    bd = cuda.blockDim.x

    # load this block's chunk into shared
    i = bx * bd + tx
    if i < len(x):
        if tx < chunksize:
            sm1[tx] = x[i]
        else:
            sm2[tx - chunksize] = x[i]

    cuda.syncthreads()

    # one thread per block writes this block's chunk
    if tx == 0:
        for j in range(chunksize):
            y[bd * bx + j] = sm1[j]
            y[bd * bx + j + chunksize] = sm2[j]
