# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_threadfence_system_codegen) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def use_threadfence_system(ary):
    ary[0] += 123
    cuda.threadfence_system()
    ary[0] += 321
