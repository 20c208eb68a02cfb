# CPython: unterminated triple-quoted string literal; in host code it was ignored.
from numba import cuda

@cuda.jit
def k(a):
    a[0] = 1

notes = """
host code
