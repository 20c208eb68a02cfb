# Recorded from numba.cuda.tests.cudapy.test_ssa (TestReportedSSAIssues.test_issue5243) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, q, lin):
    stencil_val = 0.0  # noqa: F841
    stencil_val = q[0, 0]  # noqa: F841
    result[0] = lin[0]
