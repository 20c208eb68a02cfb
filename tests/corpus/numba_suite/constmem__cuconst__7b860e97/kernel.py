# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_array) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST1D = numpy.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], dtype=numpy.float64)


@cuda.jit
def cuconst(A):
    C = cuda.const.array_like(CONST1D)
    i = cuda.grid(1)

    # +1 or it'll be loaded & stored as a u32
    A[i] = C[i] + 1.0
