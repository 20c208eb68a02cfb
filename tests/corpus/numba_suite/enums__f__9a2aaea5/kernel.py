# Recorded from numba.cuda.tests.cudapy.test_enums (EnumTest.test_int_cast) by tests/numba_suite/harness.py
from numba import cuda
from enum import IntEnum
from numba import int16
from numba import int32

class RequestError(IntEnum):
    dummy = 2
    not_found = 404
    internal_error = 500

class Shape(IntEnum):
    # Same as Color.green
    circle = 2
    # Same as RequestError.internal_error
    square = 500



@cuda.jit
def f(x, out):
    # Explicit coercion of intenums to ints
    if x > int16(RequestError.internal_error):
        out[0] = x - int32(RequestError.not_found)
    else:
        out[0] = x + int16(Shape.circle)
