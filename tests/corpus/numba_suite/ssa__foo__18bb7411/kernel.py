# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue3094) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, pred):
    if pred:
        x = 1
    else:
        x = 0
    result[0] = x
