# Recorded from numba.cuda.tests.cudapy.test_atomics (TestCudaAtomics.test_atomic_nanmin_double_shared) by tests/numba_suite/harness.py
from numba import cuda
from numba import float64




@cuda.jit('void(float64[:], float64[:])')
def atomic_nanmin_double_shared(res, ary):
    tid = cuda.threadIdx.x
    smary = cuda.shared.array(32, float64)
    smary[tid] = ary[tid]
    smres = cuda.shared.array(1, float64)
    if tid == 0:
        smres[0] = res[0]
    cuda.syncthreads()
    cuda.atomic.nanmin(smres, 0, smary[tid])
    cuda.syncthreads()
    if tid == 0:
        res[0] = smres[0]
