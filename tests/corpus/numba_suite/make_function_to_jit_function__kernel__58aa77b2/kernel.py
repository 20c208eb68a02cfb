# Recorded from numba.cuda.tests.cudapy.test_make_function_to_jit_function (TestMakeFunctionToJITFunction.test_escape_with_kwargs) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def consumer_func(func, *args):
    return func(*args)


@cuda.jit
def jitted_func():
    t = 12

    def inner(a, b, c, mydefault1=123, mydefault2=456):
        z = 4
        return mydefault1 + mydefault2 + z + t + a + b + c

    # this is awkward, top and tail closure inlining with a escapees
    # in the middle that do/don't have defaults.
    return (
        inner(1, 2, 5, 91, 53),
        consumer_func(inner, 1, 2, 3, 73),
        consumer_func(
            inner,
            1,
            2,
            3,
        ),
        inner(1, 2, 4),
    )


@cuda.jit
def kernel(out):
    out[0], out[1], out[2], out[3] = jitted_func()
