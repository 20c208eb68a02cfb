# Seed 003: @njit(parallel=True) with prange and a += reduction (the sum of absolute values);
# the parts of the loop run on the thread pool, so the sum matches up to the order of additions.
from numba import njit, prange, set_num_threads


@njit(parallel=True)
def numba_reduce(A):
    s = 0
    # Without "parallel=True" in the jit-decorator
    # the prange statement is equivalent to range
    for i in prange(A.shape[0]):
        if A[i] < 0:
            s += -A[i]
        else:
            s += A[i]
    return s
