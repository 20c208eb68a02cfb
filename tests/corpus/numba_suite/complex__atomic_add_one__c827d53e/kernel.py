# Recorded from numba.cuda.tests.cudapy.test_complex (TestAtomicOnComplexComponents.test_atomic_on_real) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_add_one(values):
    i = cuda.grid(1)
    cuda.atomic.add(values.real, i, 1)
