# Recorded from numba.cuda.tests.cudapy.test_iterators (TestIterators.test_enumerate_zip) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def enumerator_zipper(x, y, error):
    count = 0

    for i, (xv, yv) in enumerate(zip(x, y)):
        if i != count:
            error[0] = 1
        if xv != x[i]:
            error[0] = 2
        if yv != y[i]:
            error[0] = 3

        count += 1

    if count != len(x):
        error[0] = 4
