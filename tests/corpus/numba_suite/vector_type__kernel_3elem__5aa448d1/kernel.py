# Recorded from numba.cuda.tests.cudapy.test_vector_type (TestCudaVectorType.test_creation_readout) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32 as base_type
from numba.cuda import int8x3 as vobj




@cuda.jit
def kernel_3elem(res):
    v = vobj(base_type(0), base_type(1), base_type(2))
    res[0] = v.x
    res[1] = v.y
    res[2] = v.z
