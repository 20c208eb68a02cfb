# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemory.test_dynshared_slice_write_backwards) by tests/numba_suite/harness.py
from numba import cuda
from numba import int32




@cuda.jit
def slice_write_backwards(x):
    dynsmem = cuda.shared.array(0, dtype=int32)
    sm1 = dynsmem[1::-1]
    sm2 = dynsmem[3:1:-1]

    sm1[0] = 1
    sm1[1] = 2
    sm2[0] = 3
    sm2[1] = 4
    x[0] = dynsmem[0]
    x[1] = dynsmem[1]
    x[2] = dynsmem[2]
    x[3] = dynsmem[3]
