# Recorded from numba.cuda.tests.cudapy.test_enums (EnumTest.test_int_coerce) by tests/numba_suite/harness.py
from numba import cuda
from enum import IntEnum

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
    # Implicit coercion of intenums to ints
    if x > RequestError.internal_error:
        out[0] = x - RequestError.not_found
    else:
        out[0] = x + Shape.circle
