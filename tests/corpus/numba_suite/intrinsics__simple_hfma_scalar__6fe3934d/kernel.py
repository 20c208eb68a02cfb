# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hfma_scalar) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2, f2, f2)')
def simple_hfma_scalar(ary, a, b, c):
    ary[0] = cuda.fp16.hfma(a, b, c)
