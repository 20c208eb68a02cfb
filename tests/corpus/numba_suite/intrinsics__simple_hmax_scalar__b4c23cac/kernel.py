# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hmax) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2, f2)')
def simple_hmax_scalar(ary, a, b):
    ary[0] = cuda.fp16.hmax(a, b)
