# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_record_align) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST_RECORD_ALIGN = numpy.array([(1, 2, 3, 3735928559, 8), (4, 5, 6, 3203391149, 10)], dtype=numpy.dtype([('a', numpy.uint8), ('b', numpy.uint8), ('x', numpy.uint8), ('y', numpy.uint32), ('z', numpy.uint8)], align=True))


@cuda.jit
def cuconstRecAlign(A, B, C, D, E):
    Z = cuda.const.array_like(CONST_RECORD_ALIGN)
    i = cuda.grid(1)
    A[i] = Z[i]["a"]
    B[i] = Z[i]["b"]
    C[i] = Z[i]["x"]
    D[i] = Z[i]["y"]
    E[i] = Z[i]["z"]
