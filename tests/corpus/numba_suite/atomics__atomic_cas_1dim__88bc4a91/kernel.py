# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_cas4_1dim) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_cas_1dim(res, old, ary, fill_val):
    gid = cuda.grid(1)
    if gid < res.size:
        old[gid] = cuda.atomic.cas(res, gid, fill_val, ary[gid])
