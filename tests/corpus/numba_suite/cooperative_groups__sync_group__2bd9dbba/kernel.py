# Recorded from numba.cuda.tests.cudapy.test_cooperative_groups (TestCudaCooperativeGroups.test_sync_group) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def sync_group(A):
    g = cuda.cg.this_grid()
    g.sync()
    A[0] = 1.0
