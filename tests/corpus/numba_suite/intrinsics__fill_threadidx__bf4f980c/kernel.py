# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_fill_threadidx) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:])')
def fill_threadidx(ary):
    i = cuda.threadIdx.x
    ary[i] = i
