# Recorded from numba.cuda.tests.cudapy.test_exception (TestException.test_raise_causing_warp_diverge) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def oracle(x, y):
    tid = cuda.threadIdx.x
    ntid = cuda.blockDim.x

    if tid > 12:
        for i in range(ntid):
            if y[i] != 0:
                y[i] += x[i] // y[i]

    cuda.syncthreads()
    if tid < 17:
        for i in range(ntid):
            if y[i] != 0:
                x[i] += x[i] // y[i]
