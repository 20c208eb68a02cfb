from numba import cuda, njit
# pykern: --sig count_found=void(float64[:], float64[:], int64[:])
# find() returns an index or None (Optional(int64)); Numba types no bool() of an Optional, so
# `if r:` is refused (test `r is not None`), in a kernel as in a @jit function.

@njit
def find(x, v):
    for i in range(x.shape[0]):
        if x[i] == v:
            return i
    return None

@cuda.jit
def count_found(x, probes, out):
    i = cuda.grid(1)
    if i < probes.shape[0]:
        r = find(x, probes[i])
        if r:
            out[i] = 1
        out[i] += 0 if not r else 2
