# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue5223) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def bar(result, x):
    if len(x) == 5:
        for i in range(len(x)):
            result[i] = x[i]
    else:
        # Manual copy since .copy() not available in CUDA
        for i in range(len(x)):
            result[i] = x[i] + 1
