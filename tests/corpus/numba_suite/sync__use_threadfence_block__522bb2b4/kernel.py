# Recorded from numba.cuda.tests.cudapy.test_sync (TestCudaSync.test_threadfence_block_codegen) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def use_threadfence_block(ary):
    ary[0] += 123
    cuda.threadfence_block()
    ary[0] += 321
