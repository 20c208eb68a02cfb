# Recorded from numba.cuda.tests.cudapy.test_lang (TestLang.test_issue_872) by tests/numba_suite/harness.py
from numba import cuda
from numba import float64




@cuda.jit('void(float64[:,:])')
def cuda_kernel_api_in_multiple_blocks(ary):
    for i in range(2):
        tx = cuda.threadIdx.x
    for j in range(3):
        ty = cuda.threadIdx.y
    sm = cuda.shared.array((2, 3), float64)
    sm[tx, ty] = 1.0
    ary[tx, ty] = sm[tx, ty]
