# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_fp16_intrinsics_common) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2[:])')
def simple_hfloor(r, x):
    i = cuda.grid(1)

    if i < len(r):
        r[i] = cuda.fp16.hfloor(x[i])
