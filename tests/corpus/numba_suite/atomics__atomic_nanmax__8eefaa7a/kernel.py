# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_nanmax_float32) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_nanmax(res, ary):
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    cuda.atomic.nanmax(res, 0, ary[tx, bx])
