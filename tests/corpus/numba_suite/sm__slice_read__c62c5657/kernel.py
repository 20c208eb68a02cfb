# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemory.test_dynshared_slice_read) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32




@cuda.jit
def slice_read(x):
    dynsmem = cuda.shared.array(0, dtype=int32)
    sm1 = dynsmem[0:1]
    sm2 = dynsmem[1:2]

    dynsmem[0] = 1
    dynsmem[1] = 2
    x[0] = sm1[0]
    x[1] = sm2[0]
