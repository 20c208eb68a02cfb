# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hfma) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2[:], f2[:], f2[:])')
def simple_hfma(ary, a, b, c):
    ary[0] = cuda.fp16.hfma(a[0], b[0], c[0])
