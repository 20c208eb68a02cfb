# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_sub_double_global) by tests/numba_suite/harness.py
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


@cuda.jit('void(int64[:], float64[:])')
def atomic_sub_double_global(idx, ary):
    atomic_binary_1dim_global(ary, idx, 32, 1.0, cuda.atomic.sub, False)
