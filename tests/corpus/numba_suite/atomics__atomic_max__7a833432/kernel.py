# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_max_double) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_max(res, ary):
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    cuda.atomic.max(res, 0, ary[tx, bx])
