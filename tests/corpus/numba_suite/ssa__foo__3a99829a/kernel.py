# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue5482_missing_variable_init) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, x, v, n):
    for i in range(n):
        if i == 0:
            if i == x:
                pass
            else:
                problematic = v
        else:
            if i == x:
                pass
            else:
                problematic = problematic + v
    result[0] = problematic
