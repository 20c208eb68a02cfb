# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_habs) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def simple_habs(ary, a):
    ary[0] = cuda.fp16.habs(a[0])
