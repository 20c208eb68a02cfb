# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_nanmax_returns_old_nan_val) by tests/numba_suite/harness.py
from numba import cuda
import numpy as np




@cuda.jit
def kernel(x):
    x[1] = cuda.atomic.nanmax(x, 0, np.nan)
