# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_dec_global2_64) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def atomic_binary_2dim_global(ary, op2, binop_func, y_cast_func, neg_idx):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bin = (tx, y_cast_func(ty))
    if neg_idx:
        bin = (bin[0] % ary.shape[0], bin[1] % ary.shape[1])
    binop_func(ary, bin, op2)


@cuda.jit(device=True)
def atomic_cast_none(num):
    return num


@cuda.jit('void(uint64[:,:], uint64)')
def atomic_dec_global_2(ary, op2):
    atomic_binary_2dim_global(
        ary, op2, cuda.atomic.dec, atomic_cast_none, False
    )
