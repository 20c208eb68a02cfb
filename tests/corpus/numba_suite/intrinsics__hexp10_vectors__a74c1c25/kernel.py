# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hexp10) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def hexp10_vectors(r, x):
    i = cuda.grid(1)

    if i < len(r):
        r[i] = cuda.fp16.hexp10(x[i])
