# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_fp16_comparison) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(b1[:], f2, f2)')
def simple_hle_scalar(ary, a, b):
    ary[0] = cuda.fp16.hle(a, b)
