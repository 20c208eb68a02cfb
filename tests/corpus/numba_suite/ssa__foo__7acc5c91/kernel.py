# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue5623_equal_statements_in_same_bb) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(pred, stack):
    i = 0
    c = 1

    if pred is True:
        stack[i] = c
        i += 1
        stack[i] = c
        i += 1
