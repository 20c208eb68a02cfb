# Recorded from numba.cuda.tests.cudapy.test_record_dtype (TestRecordDtype.test_set_a) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def set_a(ary, i, v):
    ary[i].a = v
