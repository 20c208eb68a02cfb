# Recorded from numba.cuda.tests.cudapy.test_enums (EnumTest.test_getattr_getitem) by tests/numba_suite/harness.py
from numba import cuda
from enum import Enum

class Color(Enum):
    red = 1
    green = 2
    blue = 3



@cuda.jit
def f(out):
    # Lookup of an enum member on its class
    out[0] = Color.red == Color.green
    out[1] = Color["red"] == Color["green"]
