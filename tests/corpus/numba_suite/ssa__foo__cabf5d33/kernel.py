# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue2194) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit
import numpy as np




@cuda.jit
def foo(result, V):
    s = np.uint32(1)

    for i in range(s):
        V[i] = 1
    for i in range(s, 1):
        pass
    result[0] = V[0]
