# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemoryIssue.test_issue_1051_shared_size_broken_1d) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32

shape = 2


@cuda.jit
def s(a):
    arr = cuda.shared.array(shape, dtype=int32)
    a[0] = arr.size
