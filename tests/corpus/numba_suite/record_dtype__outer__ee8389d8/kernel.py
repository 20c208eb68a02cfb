# Recorded from numba.cuda.tests.cudapy.test_record_dtype (TestNestedArrays.test_getitem_idx) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit(device=True)
def inner(ary):
    return ary[0]


@cuda.jit
def outer(arg0, res):
    res[0] = inner(arg0)
