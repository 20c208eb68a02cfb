# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_max_double_normalizedindex) by tests/numba_suite/harness.py
from numba import cuda
from numba import uint64




@cuda.jit('void(float64[:], float64[:,:])')
def atomic_max_double_normalizedindex(res, ary):
    tx = cuda.threadIdx.x
    bx = cuda.blockIdx.x
    cuda.atomic.max(res, 0, ary[tx, uint64(bx)])
