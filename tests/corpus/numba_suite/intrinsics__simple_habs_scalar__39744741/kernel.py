# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_habs_scalar) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2)')
def simple_habs_scalar(ary, a):
    ary[0] = cuda.fp16.habs(a)
