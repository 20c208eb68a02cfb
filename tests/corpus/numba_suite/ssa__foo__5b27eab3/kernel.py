# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue3931) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, arr):
    for i in range(1):
        arr = arr.reshape(3 * 2)
        arr = arr.reshape(3, 2)
    # Copy result array elements
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            result[i, j] = arr[i, j]
