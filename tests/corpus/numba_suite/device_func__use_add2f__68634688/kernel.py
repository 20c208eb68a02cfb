# Recorded from numba.cuda.tests.cudapy.test_device_func (TestDeviceFunc.test_use_add2f) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('float32(float32, float32)', device=True)
def add2f(a, b):
    return a + b


@cuda.jit('void(float32[:])')
def use_add2f(ary):
    i = cuda.grid(1)
    ary[i] = add2f(ary[i], ary[i])
