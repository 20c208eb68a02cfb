# CPython: IndentationError after 'while' statement.
from numba import cuda

@cuda.jit
def k(a):
    i = 0
    while i < a.size:
    i += 1
