# Recorded from numba.cuda.tests.cudapy.test_constmem (TestCudaConstantMemory.test_const_align) by tests/numba_suite/harness.py
from numba import cuda
import numpy

CONST1D = numpy.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], dtype=numpy.float64)
CONST3BYTES = numpy.array([0, 1, 2], dtype=numpy.uint8)


@cuda.jit('void(float64[:])')
def cuconstAlign(z):
    a = cuda.const.array_like(CONST3BYTES)
    b = cuda.const.array_like(CONST1D)
    i = cuda.grid(1)
    z[i] = a[i] + b[i]
