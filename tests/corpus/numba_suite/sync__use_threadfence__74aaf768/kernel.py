# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_threadfence_codegen) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def use_threadfence(ary):
    ary[0] += 123
    cuda.threadfence()
    ary[0] += 321
