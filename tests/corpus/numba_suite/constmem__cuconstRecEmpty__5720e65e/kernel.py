# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_record_empty) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST_RECORD_EMPTY = numpy.array([], dtype=numpy.dtype([('x', numpy.float64), ('y', numpy.int64)]))


@cuda.jit('void(int64[:])')
def cuconstRecEmpty(A):
    C = cuda.const.array_like(CONST_RECORD_EMPTY)
    i = cuda.grid(1)
    A[i] = len(C)
