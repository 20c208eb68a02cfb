# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_compare_and_swap3) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_compare_and_swap(res, old, ary, fill_val):
    gid = cuda.grid(1)
    if gid < res.size:
        old[gid] = cuda.atomic.compare_and_swap(res[gid:], fill_val, ary[gid])
