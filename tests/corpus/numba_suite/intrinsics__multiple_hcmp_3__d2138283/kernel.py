# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_multiple_float16_comparisons) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def hlt_func_1(x, y):
    return cuda.fp16.hlt(x, y)


@cuda.jit('void(b1[:], f2, f2, f2)')
def multiple_hcmp_3(r, a, b, c):
    # Different float16 predicates used in the caller and callee
    r[0] = hlt_func_1(a, b) and cuda.fp16.hge(c, b)
