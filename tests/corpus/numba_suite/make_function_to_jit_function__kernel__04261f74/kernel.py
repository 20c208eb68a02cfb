# Recorded from numba.cuda.tests.cudapy.test_make_function_to_jit_function (TestMakeFunctionToJITFunction.test_close_over_consts) by tests/numba_suite/harness.py
from numba import cuda

_global = 123


@cuda.jit
def consumer_func(func, *args):
    return func(*args)


@cuda.jit
def jitted_func():
    y = 10

    def callinner(z):
        return y + z + _global

    return consumer_func(callinner, 6)


@cuda.jit
def kernel(out):
    out[0] = jitted_func()
