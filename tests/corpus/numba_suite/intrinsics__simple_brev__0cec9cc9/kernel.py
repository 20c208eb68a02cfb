# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_brev_u4) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(uint32[:], uint32)')
def simple_brev(ary, c):
    ary[0] = cuda.brev(c)
