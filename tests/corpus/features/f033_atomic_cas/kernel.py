# cuda.atomic.compare_and_swap(ary, old, val) works on ary[0]; cuda.atomic.cas(ary, idx, old,
# val) on any element, with a tuple index for a 2-d array. Each returns the value it found.
# One thread, so that the order of the swaps (and the expected result) is fixed.
from numba import cuda


@cuda.jit
def claim(first, found, table, seen):
    for i in range(found.size):
        # Only the first swap finds 0 in first[0]; the later ones see the winner's value.
        found[i] = cuda.atomic.compare_and_swap(first, 0, i + 1)
        seen[i] = cuda.atomic.cas(table, (i % 3, i % 2), -1, i)
