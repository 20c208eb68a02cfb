# Recorded from numba.cuda.tests.cudapy.test_vector_type (TestCudaVectorType.test_basic) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float64[:])')
def kernel(arr):
    v1 = cuda.float64x4(1.0, 3.0, 5.0, 7.0)
    v2 = cuda.short2(10, 11)
    arr[0] = v1.x
    arr[1] = v1.y
    arr[2] = v1.z
    arr[3] = v1.w
    arr[4] = v2.x
    arr[5] = v2.y
