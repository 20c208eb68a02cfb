# Recorded from numba.cuda.tests.cudapy.test_iterators (TestIterators.test_zip) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def zipper(x, y, error):
    i = 0

    for xv, yv in zip(x, y):
        if xv != x[i]:
            error[0] = 1
        if yv != y[i]:
            error[0] = 2

        i += 1

    if i != len(x):
        error[0] = 3
