# Recorded from numba.cuda.tests.cudapy.test_device_func (TestDeviceFunc.test_indirect_add2f) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('float32(float32, float32)', device=True)
def add2f(a, b):
    return a + b


@cuda.jit('float32(float32, float32)', device=True)
def indirect(a, b):
    return add2f(a, b)


@cuda.jit('void(float32[:])')
def indirect_add2f(ary):
    i = cuda.grid(1)
    ary[i] = indirect(ary[i], ary[i])
