# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_max_returns_old_replace) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def kernel(x):
    x[1] = cuda.atomic.max(x, 0, 10)
