# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_popc_u1) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:], uint8)')
def simple_popc(ary, c):
    ary[0] = cuda.popc(c)
