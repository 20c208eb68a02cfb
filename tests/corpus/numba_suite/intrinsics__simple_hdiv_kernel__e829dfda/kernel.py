# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_hdiv) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(f2[:], f2[:], f2[:])')
def simple_hdiv_kernel(ary, array_a, array_b):
    i = cuda.grid(1)
    if i < ary.size:
        a = array_a[i]
        b = array_b[i]
        ary[i] = cuda.fp16.hdiv(a, b)
