# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_sub_double_2) by tests/numba_suite/harness.py
from numba import cuda
from numba import float64




@cuda.jit(device=True)
def atomic_binary_2dim_shared(
    ary, op2, ary_dtype, ary_shape, binop_func, y_cast_func, neg_idx
):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm = cuda.shared.array(ary_shape, ary_dtype)
    sm[tx, ty] = ary[tx, ty]
    cuda.syncthreads()
    bin = (tx, y_cast_func(ty))
    if neg_idx:
        bin = (bin[0] % ary_shape[0], bin[1] % ary_shape[1])
    binop_func(sm, bin, op2)
    cuda.syncthreads()
    ary[tx, ty] = sm[tx, ty]


@cuda.jit(device=True)
def atomic_cast_none(num):
    return num


@cuda.jit('void(float64[:,:])')
def atomic_sub_double_2(ary):
    atomic_binary_2dim_shared(
        ary, 1.0, float64, (4, 8), cuda.atomic.sub, atomic_cast_none, False
    )
