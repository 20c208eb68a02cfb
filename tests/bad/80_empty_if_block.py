# CPython: IndentationError, expected an indented block after 'if' statement. tree-sitter
# gave the if an empty block and the kernel ran without it.
from numba import cuda

@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
    a[i] = 1
