# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_max_double_oneindex) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float64[:], float64[:])')
def atomic_max_double_oneindex(res, ary):
    tx = cuda.threadIdx.x
    cuda.atomic.max(res, 0, ary[tx])
