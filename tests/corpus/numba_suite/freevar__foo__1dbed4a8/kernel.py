# Recorded from numba.cuda.tests.cudapy.test_freevar (TestFreeVar.test_freevar) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32 as nbtype

size = 1024


@cuda.jit('(float32[::1], intp)')
def foo(A, i):
    "Dummy function"
    sdata = cuda.shared.array(
        size,  # size is freevar
        dtype=nbtype,
    )  # nbtype is freevar
    A[i] = sdata[i]
