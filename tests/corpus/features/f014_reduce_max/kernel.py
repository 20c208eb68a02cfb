# max and min reductions (exact whatever the order).
from numba import cuda


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def min_reduce(a, b):
    return min(a, b)
