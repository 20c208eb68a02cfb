# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_inc_global_64) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def atomic_binary_1dim_global(
    ary, idx, ary_nelements, op2, binop_func, neg_idx
):
    tid = cuda.threadIdx.x
    bin = int(idx[tid] % ary_nelements)
    if neg_idx:
        bin = bin % ary_nelements
    binop_func(ary, bin, op2)


@cuda.jit('void(uint64[:], uint64[:], uint64)')
def atomic_inc_global(idx, ary, op2):
    atomic_binary_1dim_global(ary, idx, 32, op2, cuda.atomic.inc, False)
