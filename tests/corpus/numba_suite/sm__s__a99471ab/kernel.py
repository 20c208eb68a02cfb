# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemoryIssue.test_issue_fp16_support) by tests/numba_suite/harness.py
from numba import cuda
from numpy import float16 as ty

shape = 2


@cuda.jit
def s(a):
    arr = cuda.shared.array(shape, dtype=ty)
    a[0] = arr.size
