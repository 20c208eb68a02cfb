# Recorded from numba.cuda.tests.cudapy.test_globals (TestCudaTestGlobal.test_global_int_const) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32

N = 100


@cuda.jit('void(int32[:])')
def simple_smem(ary):
    sm = cuda.shared.array(N, int32)
    i = cuda.grid(1)
    if i == 0:
        for j in range(N):
            sm[j] = j
    cuda.syncthreads()
    ary[i] = sm[i]
