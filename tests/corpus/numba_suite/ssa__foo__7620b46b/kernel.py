# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue3979) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, A, B):
    x = A[0]
    y = B[0]
    for i in A:
        x = i
    for i in B:
        y = i
    result[0] = x
    result[1] = y
