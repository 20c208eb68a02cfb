# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_3dgrid) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(out):
    x, y, z = cuda.grid(3)
    a, b, c = cuda.gridsize(3)
    out[x, y, z] = a * b * c
