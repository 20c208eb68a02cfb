# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_record) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST_RECORD = numpy.array([(1.0, 2), (3.0, 4)], dtype=numpy.dtype([('x', numpy.float64), ('y', numpy.int64)]))


@cuda.jit
def cuconstRec(A, B):
    C = cuda.const.array_like(CONST_RECORD)
    i = cuda.grid(1)
    A[i] = C[i]["x"]
    B[i] = C[i]["y"]
