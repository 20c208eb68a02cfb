# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_empty) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST_EMPTY = numpy.array([], dtype=numpy.float64)


@cuda.jit('void(int64[:])')
def cuconstEmpty(A):
    C = cuda.const.array_like(CONST_EMPTY)
    i = cuda.grid(1)
    A[i] = len(C)
