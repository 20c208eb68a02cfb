# Recorded from numba.cuda.tests.cudapy.test_retrieve_autoconverted_arrays (TestRetrieveAutoconvertedArrays.test_record_default) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def set_record_to_three(rec):
    rec[0]["b"] = 3
