# CPython: SyntaxError, 'if' is a keyword. tree-sitter read it as a name.
from numba import cuda

@cuda.jit
def if(a):
    a[0] = 1
