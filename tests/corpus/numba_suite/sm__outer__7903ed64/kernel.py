# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemoryIssue.test_issue_953_sm_linkage_conflict) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32




@cuda.jit(device=True)
def inner():
    inner_arr = cuda.shared.array(1, dtype=int32)  # noqa: F841


@cuda.jit
def outer():
    outer_arr = cuda.shared.array(1, dtype=int32)  # noqa: F841
    inner()
