# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_min_float) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_min(res, ary):
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    cuda.atomic.min(res, 0, ary[tx, bx])
