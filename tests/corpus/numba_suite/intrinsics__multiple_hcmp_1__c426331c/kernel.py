# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_multiple_float16_comparisons) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def hlt_func_1(x, y):
    return cuda.fp16.hlt(x, y)


@cuda.jit(device=True)
def hlt_func_2(x, y):
    return cuda.fp16.hlt(x, y)


@cuda.jit('void(b1[:], f2, f2, f2)')
def multiple_hcmp_1(r, a, b, c):
    # float16 predicates used in two separate functions
    r[0] = hlt_func_1(a, b) and hlt_func_2(b, c)
