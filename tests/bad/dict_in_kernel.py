from numba import cuda, types
from numba.typed import Dict
# pykern: --sig k=void(int64[:])


@cuda.jit
def k(a):
    counts = {}
    table = Dict.empty(key_type=types.int64, value_type=types.float64)
    other = dict()
    a[0] = len(counts) + len(table) + len(other)
