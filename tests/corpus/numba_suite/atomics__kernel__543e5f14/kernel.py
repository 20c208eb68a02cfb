# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_add_returns_old) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def kernel(x):
    x[1] = cuda.atomic.add(x, 0, 1)
