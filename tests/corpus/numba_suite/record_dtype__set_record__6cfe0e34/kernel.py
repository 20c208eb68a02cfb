# Recorded from numba.cuda.tests.cudapy.test_record_dtype (TestRecordDtype.test_set_record) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def set_record(ary, i, j):
    ary[i] = ary[j]
