# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hmul) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def simple_hmul(ary, a, b):
    ary[0] = cuda.fp16.hmul(a[0], b[0])
