# A barrier that answers a value (syncthreads_count/and/or) is a call with effects: an element
# read after it in Python's order sees what the other threads wrote before the barrier, in a
# call's arguments too. Atomics in a call's arguments are likewise taken left to right.
from numba import cuda


@cuda.jit
def ordered(a, counter, out):
    i = cuda.threadIdx.x
    n = cuda.blockDim.x
    a[i] = i + 1
    after = min(cuda.syncthreads_count(a[i] > 0) * 1000, a[(i + 1) % n])
    cuda.syncthreads()
    a[i] = 2 * i + 1
    both = max(cuda.syncthreads_and(a[i] > 0) - 10, a[(i + 2) % n])
    any_ = min(cuda.syncthreads_or(a[i] > 1000) + 1000, a[(i + 3) % n])
    out[i, 0] = after
    out[i, 1] = both
    out[i, 2] = any_
    if i == 0:
        out[i, 3] = max(cuda.atomic.add(counter, 0, 5), counter[0])
        out[i, 4] = min(counter[0], cuda.atomic.add(counter, 0, 7) + 100)
