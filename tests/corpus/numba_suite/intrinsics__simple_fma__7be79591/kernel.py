# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_fma_f8) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f8[:], f8, f8, f8)')
def simple_fma(ary, a, b, c):
    ary[0] = cuda.fma(a, b, c)
