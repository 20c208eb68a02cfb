# Recorded from numba.cuda.tests.cudapy.test_cooperative_groups (TestCudaCooperativeGroups.test_this_grid) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def this_grid(A):
    cuda.cg.this_grid()
    A[0] = 1.0
