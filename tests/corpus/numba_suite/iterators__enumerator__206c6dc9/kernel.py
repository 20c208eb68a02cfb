# Recorded from numba.cuda.tests.cudapy.test_iterators (TestIterators.test_enumerate) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def enumerator(x, error):
    count = 0

    for i, v in enumerate(x):
        if count != i:
            error[0] = 1
        if v != x[i]:
            error[0] = 2

        count += 1

    if count != len(x):
        error[0] = 3
