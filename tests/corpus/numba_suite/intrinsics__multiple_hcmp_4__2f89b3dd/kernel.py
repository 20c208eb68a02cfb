# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_multiple_float16_comparisons) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(b1[:], f2, f2, f2)')
def multiple_hcmp_4(r, a, b, c):
    # The same float16 predicates used twice in a function
    r[0] = cuda.fp16.hlt(a, b) and cuda.fp16.hlt(b, c)
