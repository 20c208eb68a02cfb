# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemory.test_dynshared_slice_overlap) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32




@cuda.jit
def slice_overlap(x):
    dynsmem = cuda.shared.array(0, dtype=int32)
    sm1 = dynsmem[0:2]
    sm2 = dynsmem[1:4]

    dynsmem[0] = 1
    dynsmem[1] = 2
    dynsmem[2] = 3
    dynsmem[3] = 4
    x[0] = sm1[0]
    x[1] = sm1[1]
    x[2] = sm2[0]
    x[3] = sm2[1]
    x[4] = sm2[2]
