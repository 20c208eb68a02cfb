# prange in a parallel=True function: the loop's parts run on the host's thread pool (one part
# on a GPU thread), with private copies of what the body assigns and partial reductions that
# are combined in part order. A loop that carries another value runs in order, with a warning.
from numba import cuda, njit, prange
# pykern: --sig k=void(float64[::1], float64[::1])

@njit(parallel=True)
def moments(a):
    s = 0.0
    q = 1.0
    lo = a[0]
    for i in prange(a.shape[0]):
        v = a[i]
        s += v
        q *= v
        lo = min(lo, v)
    return s, q, lo

@njit(parallel=True)
def smooth(a):
    x = 0.0
    for i in prange(a.shape[0]):
        x = x * 0.5 + a[i]
        a[i] = x

@cuda.jit
def k(a, out):
    s, q, lo = moments(a)
    out[0] = s
    out[1] = q
    out[2] = lo
    smooth(out)
