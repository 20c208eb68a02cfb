# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_exch) by tests/numba_suite/harness.py
from numba import cuda
from numba import uint32




@cuda.jit(device=True)
def atomic_binary_1dim_shared2(
    ary, idx, op2, ary_dtype, ary_nelements, binop_func, cast_func
):
    tid = cuda.threadIdx.x
    sm = cuda.shared.array(ary_nelements, ary_dtype)
    sm[tid] = ary[tid]
    cuda.syncthreads()
    bin = cast_func(idx[tid] % ary_nelements)
    binop_func(sm, bin, op2)
    cuda.syncthreads()
    ary[tid] = sm[tid]


@cuda.jit(device=True)
def atomic_cast_none(num):
    return num


@cuda.jit('void(uint32[:], uint32[:], uint32)')
def atomic_exch(ary, idx, op2):
    atomic_binary_1dim_shared2(
        ary, idx, op2, uint32, 32, cuda.atomic.exch, atomic_cast_none
    )
