# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hmul_scalar) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2, f2)')
def simple_hmul_scalar(ary, a, b):
    ary[0] = cuda.fp16.hmul(a, b)
