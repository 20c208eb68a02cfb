# CPython: IndentationError (the last line dedents to no enclosing level). Before, tree-sitter
# moved it to module level and the kernel ran without it.
from numba import cuda

@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 1
  a[0] = 2
