# Recorded from numba.cuda.tests.cudapy.test_forall (TestForAll.test_forall_2) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(float32, float32[:], float32[:])')
def bar(a, x, y):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = a * x[i] + y[i]
