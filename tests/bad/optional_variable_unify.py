from numba import cuda, njit
# pykern: --sig k=void(float64[:], int64[:])
# `found` is None, then an index (Optional(int64)), then a tuple: Numba cannot unify
# OptionalType(UniTuple(int64 x 2)) and OptionalType(int64).

@njit
def lookup(x, v):
    found = None
    for i in range(x.shape[0]):
        if x[i] == v:
            found = i
    if found is None:
        found = (0, 0)
    return found

@cuda.jit
def k(x, out):
    r = lookup(x, 1.0)
    out[0] = r[0]
