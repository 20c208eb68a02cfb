# Recorded from numba.cuda.tests.cudapy.test_record_dtype (TestRecordDtype.test_set_b) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def set_b(ary, i, v):
    ary[i].b = v
