# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_cbrt_f64) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float64[:], float64)')
def simple_cbrt(ary, a):
    ary[0] = cuda.cbrt(a)
