# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_cas2_2dim) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def atomic_cas_2dim(res, old, ary, fill_val):
    gid = cuda.grid(2)
    if gid[0] < res.shape[0] and gid[1] < res.shape[1]:
        old[gid] = cuda.atomic.cas(res, gid, fill_val, ary[gid])
