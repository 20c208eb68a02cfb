# Recorded from numba.cuda.tests.cudapy.test_complex (TestAtomicOnComplexComponents.test_atomic_on_imag) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_add_one_j(values):
    i = cuda.grid(1)
    cuda.atomic.add(values.imag, i, 1)
