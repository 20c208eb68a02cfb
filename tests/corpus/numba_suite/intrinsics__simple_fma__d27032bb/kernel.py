# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_fma_f4) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f4[:], f4, f4, f4)')
def simple_fma(ary, a, b, c):
    ary[0] = cuda.fma(a, b, c)
