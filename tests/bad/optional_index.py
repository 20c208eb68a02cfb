from numba import cuda
# pykern: --sig k=void(float64[:], int64[:])
# find() returns an int or None (Optional(int64)); Numba's getitem takes no Optional index, even
# after an `is not None` test.

@cuda.jit(device=True)
def find(a, v):
    for j in range(a.shape[0]):
        if a[j] == v:
            return j
    return None

@cuda.jit
def k(a, out):
    j = find(a, 0.0)
    if j is not None:
        out[j] = 1
